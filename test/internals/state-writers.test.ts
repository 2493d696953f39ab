/**
 * White-box: the sieve's state (`DriverState`, `src/sieve/state.ts`) is
 * written only by the token walk and the handlers it calls, so that what a
 * push decides is decided in one place (`src/sieve/README.md`, "token
 * walk"). A source scan: every assignment to a field of the state, through
 * the names the sieve's files give it (`s`, `d.s`, `this.s`), and every
 * `Object.assign` onto it, must stand in one of the walk's files. A new
 * writer elsewhere fails here; a new walk file joins the list with a line in
 * the README's glossary.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const dir = join(import.meta.dirname, '../../src/sieve')

/** The walk (`walk.ts`, `apply.ts`) and its handlers, as the README's glossary names them. */
const writers = new Set([
  'walk.ts', 'apply.ts', 'chunk-edge.ts',
  'capture.ts', 'holds.ts', 'boundary.ts', 'call-stream.ts', 'reasoning.ts',
  'json-block.ts', 'json-reading.ts', 'abort.ts', 'stream-end.ts',
])

/** The field names of `DriverState`, read from its declaration. */
function stateFields(): string[] {
  const src = readFileSync(join(dir, 'state.ts'), 'utf8')
  const body = /export interface DriverState \{([\s\S]*?)\n\}/.exec(src)![1]!
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??:/gm)].map((m) => m[1]!)
}

function writesIn(file: string, fields: readonly string[]): string[] {
  const src = readFileSync(join(dir, file), 'utf8')
  const field = new RegExp(String.raw`\b(?:s|d\.s|this\.s)\.(?:${fields.join('|')})\s*(?:=(?!=)|\+=|-=|\?\?=)`, 'g')
  const whole = /Object\.assign\(\s*(?:s|d\.s|this\.s)\s*,|\b(?:d|this)\.s\s*=(?!=)/g
  return [...src.matchAll(field), ...src.matchAll(whole)].map((m) => m[0])
}

describe('the sieve state\'s writers', () => {
  const fields = stateFields()
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'))

  it('should read the state\'s fields from its declaration', () => {
    expect(fields).toEqual(expect.arrayContaining(['mode', 'pending', 'pos', 'capture', 'hold', 'carry', 'deferred', 'candidate']))
    expect(fields.length).toBeGreaterThanOrEqual(18)
  })

  it('should find assignments to the state where the walk writes it (the scan sees what it looks for)', () => {
    expect(writesIn('walk.ts', fields).length).toBeGreaterThan(0)
    expect(writesIn('chunk-edge.ts', fields).length).toBeGreaterThan(0)
  })

  it('should support writes to the state only in the walk and its handlers', () => {
    const outside = files.filter((f) => !writers.has(f)).flatMap((f) => writesIn(f, fields).map((w) => `${f}: ${w}`))
    expect(outside).toEqual([])
  })

  it('should list only files that exist', () => {
    expect([...writers].filter((f) => !files.includes(f))).toEqual([])
  })
})
