/**
 * `npm pack` from a clean checkout must give a package that works: the
 * working tree's files as git sees them (no `dist/`, nothing ignored) are
 * copied to a temporary checkout, packed there (so `prepack` has to build),
 * and the tarball is installed into a temporary project, offline, from the
 * npm cache that the repository's own `npm ci` filled. There it is imported
 * from ESM, required from CJS (Node >= 20.19 requires ES modules), and
 * type-checked as a TypeScript user would, with NodeNext and bundler
 * resolution.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { printedCalls, sampleCalls, sampleScript } from './sample.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const lockfile = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'))

interface Packed { filename: string; integrity: string; size: number; files: { path: string }[] }

function run(command: string, args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 120_000 })
}

function ok(command: string, args: string[], cwd: string): string {
  const result = run(command, args, cwd)
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${result.stderr}\n${result.stdout}`)
  return result.stdout
}

const node = (args: string[], cwd: string): string => ok(process.execPath, args, cwd)

/** The working tree as a fresh clone would have it, with the repository's node_modules linked in for the build tools. */
function cleanCheckout(to: string): void {
  const listed = ok('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root).split('\0')
  // A file deleted in the working tree is still in the index until committed;
  // a node_modules symlink is a file to git, which `node_modules/` does not ignore.
  const files = listed.filter((f) => f !== '' && f !== 'node_modules' && existsSync(join(root, f)))
  for (const file of files) {
    mkdirSync(dirname(join(to, file)), { recursive: true })
    cpSync(join(root, file), join(to, file))
  }
  symlinkSync(join(root, 'node_modules'), join(to, 'node_modules'), 'dir')
}

/**
 * A project depending on the tarball, with a lockfile taken from ours (the
 * runtime dependencies' entries carry their integrity): `npm install
 * --offline <tarball>` would need the registry's package documents, which
 * `npm ci` never fetched, while `npm ci --offline` finds every tarball in the
 * cache by integrity.
 */
function writeProject(dir: string, packed: Packed, tarball: string): void {
  const spec = `file:${tarball}`
  const packages: Record<string, unknown> = {
    '': { name: 'smoke', dependencies: { toolsieve: spec } },
    // npm ci links the bins the lockfile entry names (it does not read them from the tarball)
    'node_modules/toolsieve': { version: manifest.version, resolved: spec, integrity: packed.integrity, dependencies: manifest.dependencies, bin: manifest.bin },
  }
  for (const [path, entry] of Object.entries<{ dev?: boolean }>(lockfile.packages)) {
    if (path !== '' && !entry.dev) packages[path] = entry
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'smoke', private: true, type: 'module', dependencies: { toolsieve: spec } }))
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'smoke', lockfileVersion: 3, requires: true, packages }))
}

function install(dir: string): void {
  const offline = run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], dir)
  if (offline.status === 0) return
  // An emptied npm cache: the registry is reachable, so fetch what is missing.
  const online = run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], dir)
  if (online.status !== 0) throw new Error(`npm ci failed offline:\n${offline.stderr}\nand online:\n${online.stderr}`)
}

/** Every file an `exports` entry points at (the values of nested conditions included). */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports.replace(/^\.\//, '')]
  if (typeof exports !== 'object' || exports === null) return []
  return Object.values(exports).flatMap(exportTargets)
}

describe('the package npm pack makes from a clean checkout', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'toolsieve-pack-'))
  const checkout = join(tmp, 'checkout')
  const out = join(tmp, 'out')
  const project = join(tmp, 'project')
  const installed = join(project, 'node_modules', 'toolsieve')
  let packed: Packed

  beforeAll(() => {
    for (const dir of [checkout, out, project]) mkdirSync(dir)
    cleanCheckout(checkout)
    const stdout = ok('npm', ['pack', '--json', '--pack-destination', out], checkout)
    // prepack's own output comes first on stdout; the report is the JSON array after it.
    packed = (JSON.parse(stdout.slice(stdout.indexOf('[\n'))) as Packed[])[0]!
    writeProject(project, packed, join(out, packed.filename))
    install(project)
  }, 240_000)

  afterAll(() => rmSync(tmp, { recursive: true, force: true }))

  it('should support every file package.json points at, built by prepack', () => {
    const files = packed.files.map((f) => f.path)
    for (const target of [...exportTargets(manifest.exports), manifest.main, manifest.types]) {
      const path = target.replace(/^\.\//, '')
      // a subpath pattern (`./grammar/dialects/*.json`) names files: at least one must ship
      if (path.includes('*')) {
        const [head, tail] = path.split('*') as [string, string]
        expect(files.filter((f) => f.startsWith(head) && f.endsWith(tail)).length, path).toBeGreaterThan(0)
      } else expect(files).toContain(path)
    }
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'dist/node.js', 'dist/node.d.ts', 'README.md']))
  })

  it('should not support shipping sources, tests, scripts, or source maps that point at sources not shipped', () => {
    const files = packed.files.map((f) => f.path)
    expect(files.filter((f) => /^(src|test|bench|scripts|examples)\//.test(f) || f.endsWith('.map'))).toEqual([])
    const dist = join(installed, 'dist')
    const js = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))
    expect(js.filter((f) => readFileSync(join(dist, f), 'utf8').includes('sourceMappingURL'))).toEqual([])
  })

  it('should support import from ESM, finding a call in a DSML block', () => {
    const stdout = node(['--input-type=module', '-e', `import { createSieve } from 'toolsieve'\n${sampleScript}`], project)
    expect(printedCalls(stdout)).toEqual(sampleCalls)
  })

  it('should support require from CJS, finding a call in a DSML block', () => {
    const stdout = node(['-e', `const { createSieve } = require('toolsieve')\n${sampleScript}`], project)
    expect(printedCalls(stdout)).toEqual(sampleCalls)
  })

  it('should support toolsieve/node reading a grammar file, and the shipped grammar JSON through exports', () => {
    const script = `
      import { isDeepStrictEqual } from 'node:util'
      import { defaultGrammar, loadGrammar } from 'toolsieve'
      import { loadGrammar as loadGrammarFile } from 'toolsieve/node'
      const file = import.meta.resolve('toolsieve/grammar/default.json')
      let refused
      try { loadGrammar(new URL(file)) } catch (error) { refused = error.code + ' ' + /toolsieve\\/node/.test(error.message) }
      console.log(JSON.stringify({ read: isDeepStrictEqual(loadGrammarFile(new URL(file)), defaultGrammar), refused }))
    `
    expect(printedCalls(node(['--input-type=module', '-e', script], project))).toEqual({ read: true, refused: 'grammar-unreadable true' })
    expect(node(['-e', `console.log(JSON.stringify(require('toolsieve/grammar/schema.json').$schema))`], project)).toMatch(/2020-12/)
  })

  it('should support every adapter entry from ESM and CJS with no SDK installed (the SDKs are type-only)', () => {
    const entries = { 'toolsieve/openai': 'sieveChatStream', 'toolsieve/anthropic': 'sieveMessagesStream', 'toolsieve/ai-sdk': 'toolsieveMiddleware', 'toolsieve/stream': 'sieveIterable' }
    const imports = Object.entries(entries).map(([entry, name], i) => `import { ${name} as f${i} } from '${entry}'`).join('\n')
    const esm = `${imports}\nconsole.log(JSON.stringify([${Object.keys(entries).map((_, i) => `typeof f${i}`).join(', ')}]))`
    expect(printedCalls(node(['--input-type=module', '-e', esm], project))).toEqual(['function', 'function', 'function', 'function'])
    const cjs = `console.log(JSON.stringify(${JSON.stringify(Object.entries(entries))}.map(([entry, name]) => typeof require(entry)[name])))`
    expect(printedCalls(node(['-e', cjs], project))).toEqual(['function', 'function', 'function', 'function'])
  })

  it('should support the toolsieve command from the tarball: --help, and parse on standard input', () => {
    const bin = join(project, 'node_modules', '.bin', 'toolsieve')
    const help = run(bin, ['--help'], project)
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/parse/)
    expect(help.stdout).toMatch(/proxy/)
    const parsed = spawnSync(bin, ['parse', '--format', 'text', '-'], { cwd: project, encoding: 'utf8', input: 'plain text\n', timeout: 60_000 })
    expect(parsed.status, parsed.stderr).toBe(0)
    expect(parsed.stdout).toBe('plain text\n')
  })

  it('should support TypeScript users with NodeNext (ESM and CJS) and with bundler resolution', () => {
    const esm = `import { createSieve, ToolsieveError, type SieveEvent } from 'toolsieve'
import { loadGrammar } from 'toolsieve/node'
const events: SieveEvent[] = createSieve({ grammar: loadGrammar('./g.json') }).push('text')
export const names: string[] = events.flatMap((e) => (e.type === 'tool-call' ? [e.name] : []))
export const isError = (e: unknown): boolean => e instanceof ToolsieveError
`
    writeFileSync(join(project, 'esm.ts'), esm)
    writeFileSync(join(project, 'cjs.cts'), `import toolsieve = require('toolsieve')\nexport const sieve = toolsieve.createSieve()\n`)
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
    // Our declarations are checked too (skipLibCheck off); no @types, as in a project without Node's.
    const check = (name: string, module: string, moduleResolution: string, files: string[]): string => {
      const compilerOptions = { module, moduleResolution, target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }
      writeFileSync(join(project, name), JSON.stringify({ compilerOptions, files }))
      return node([tsc, '-p', name], project)
    }
    check('tsconfig.nodenext.json', 'nodenext', 'nodenext', ['esm.ts', 'cjs.cts'])
    check('tsconfig.bundler.json', 'esnext', 'bundler', ['esm.ts'])
  })
})
