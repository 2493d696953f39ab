/**
 * The main entry bundled as a browser or edge runtime would take it: esbuild,
 * `platform: 'browser'`, everything inlined (chevrotain and ajv too, as a
 * bundler for the web does). The bundle must hold no `node:` import, start
 * without files beside it (the old `readFileSync` of `grammar/default.json`
 * crashed bundles with ENOENT) and find calls, both as an ES module in a
 * child process and in a bare `vm` context that has only web globals.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createContext, runInContext } from 'node:vm'
import { build, type BuildOptions, type Metafile } from 'esbuild'
import { afterAll, describe, expect, it } from 'vitest'
import { printedCalls, sampleCalls, sampleScript, sampleText } from './sample.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'toolsieve-bundle-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function bundle(options: BuildOptions): Promise<{ text: string; metafile: Metafile }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform: 'browser',
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...options,
  })
  const text = result.outputFiles?.[0]?.text
  if (text === undefined || result.metafile === undefined) throw new Error('esbuild wrote nothing')
  return { text, metafile: result.metafile }
}

// Built once per format, shared by the tests.
const esm = bundle({ format: 'esm' })
const iife = bundle({ format: 'iife', globalName: 'toolsieve' })
// A failed build is reported by the tests that await it, not as an unhandled rejection.
esm.catch(() => {})
iife.catch(() => {})

describe('an esbuild bundle of the main entry for the browser', () => {
  it('should not support a node: import or any import left outside the bundle', async () => {
    // esbuild fails on an unresolvable `node:fs` for the browser, so getting here already says most of it.
    const { text, metafile } = await esm
    const external = Object.values(metafile.inputs).flatMap((input) => input.imports).filter((i) => i.external)
    expect(external.map((i) => i.path)).toEqual([])
    expect(Object.keys(metafile.inputs).filter((path) => path.startsWith('node:'))).toEqual([])
    expect(Object.values(metafile.outputs).flatMap((output) => output.imports)).toEqual([])
    expect(text).not.toMatch(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']node:/)
  })

  it('should support being imported from a file with nothing beside it, and finding a call', async () => {
    const { text } = await esm
    const file = join(dir, 'toolsieve.bundle.mjs')
    writeFileSync(file, text)
    const script = `import { createSieve } from ${JSON.stringify(pathToFileURL(file).href)}\n${sampleScript}`
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 })
    expect(child.status, child.stderr).toBe(0)
    expect(printedCalls(child.stdout)).toEqual(sampleCalls)
  })

  it('should support a context with only web globals: no process, Buffer, require or module', async () => {
    const { text } = await iife
    // What a browser or an edge runtime provides and the code may use; nothing Node-only.
    const { URL, TextEncoder, TextDecoder, crypto, structuredClone, queueMicrotask, setTimeout, clearTimeout } = globalThis
    const context = createContext({ URL, TextEncoder, TextDecoder, crypto, structuredClone, queueMicrotask, setTimeout, clearTimeout })
    runInContext(text, context)
    const run = runInContext(
      `(text) => {
        const sieve = toolsieve.createSieve()
        const events = []
        for (let i = 0; i < text.length; i += 7) events.push(...sieve.push(text.slice(i, i + 7)))
        events.push(...sieve.end())
        return JSON.stringify(events.filter((e) => e.type === 'tool-call').map((e) => ({ name: e.name, input: e.input })))
      }`,
      context,
    ) as (text: string) => string
    expect(JSON.parse(run(sampleText))).toEqual(sampleCalls)
    expect(runInContext('typeof process + typeof require + typeof Buffer', context)).toBe('undefinedundefinedundefined')
  })

  it('should not support loadGrammar(path) there, naming toolsieve/node', async () => {
    const { text } = await iife
    const context = createContext({ URL, crypto })
    runInContext(text, context)
    const message = runInContext(`try { toolsieve.loadGrammar('./my-grammar.json'); 'no error' } catch (e) { e.code + ': ' + e.message }`, context)
    expect(message).toMatch(/^grammar-unreadable: \.\/my-grammar\.json: .*toolsieve\/node/)
  })
})
