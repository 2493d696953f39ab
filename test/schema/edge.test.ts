/**
 * Tools where code generation from strings is blocked (Cloudflare Workers
 * and other edge runtimes, strict-CSP pages, browser extensions): a child
 * `node --disallow-code-generation-from-strings` creates a sieve with
 * schemas using several keywords, streams a block and gets validated,
 * coerced calls. A validator that compiles schemas with `new Function`
 * throws at `createSieve` there, blaming the user's schema.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url))

interface Printed {
  evalBlocked: boolean
  events: Array<{ type: string; name?: string; input?: unknown; diagnostics?: string[]; code?: string; path?: string }>
}

describe('schemas without code generation', () => {
  it('should support tools with schemas under --disallow-code-generation-from-strings', () => {
    const child = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '--import', 'tsx', 'edge-script.ts'], { cwd: fixtures, encoding: 'utf8', timeout: 60_000 })
    expect(child.stderr).toBe('')
    expect(child.status).toBe(0)
    const out = JSON.parse(child.stdout) as Printed
    // the flag is in force: the script could not have run a compiled validator
    expect(out.evalBlocked).toBe(true)
    const calls = out.events.filter((e) => e.type === 'tool-call')
    expect(calls).toEqual([
      { type: 'tool-call', name: 'edit', input: { path: 'src/a.ts', line: 12, mode: 'insert', dry: false, tags: ['x', 'y'], range: { from: 3, to: 4 } } },
      { type: 'tool-call', name: 'edit', input: { path: 'b.ts', line: 0 }, diagnostics: ['invalid-arguments /line arguments of "edit" do not match its schema: /line must be >= 1'] },
      { type: 'tool-call', name: 'read_file', input: { path: 'c.ts' } },
    ])
    expect(out.events.filter((e) => e.type === 'diagnostic')).toEqual([{ type: 'diagnostic', code: 'invalid-arguments', path: '/line' }])
  })
})
