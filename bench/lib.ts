/**
 * The library as its users run it: the compiled package (`dist/`, what
 * `npm publish` ships and `import 'toolsieve'` loads), not the TypeScript
 * sources transformed on the fly. tsx compiles with esbuild's `keepNames`,
 * which wraps every named closure in a `__name()` call; on the per-chunk
 * paths that made the sources measurably slower than the package (about 30%
 * on token-sized chunks on the machine in README), so timing them would
 * measure the loader, not the parser. The peers are timed from their
 * published JavaScript too.
 *
 * `dist/` is rebuilt (`npm run build`) when it is missing or older than any
 * file under `src/` or `grammar/`, so a bench never times stale code.
 * Types come from the sources, which `dist/` is compiled from.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const entry = join(root, 'dist', 'index.js')

function newestMtime(dir: string): number {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)
  }
  return newest
}

function stale(): boolean {
  if (!existsSync(entry)) return true
  const built = newestMtime(join(root, 'dist'))
  return newestMtime(join(root, 'src')) > built || newestMtime(join(root, 'grammar')) > built
}

if (stale()) {
  console.error('bench: building dist/ (npm run build) so the compiled package is what gets timed')
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' })
}

/** `toolsieve` from `dist/`. */
export const toolsieve: typeof import('../src/index.js') = await import(pathToFileURL(entry).href)
