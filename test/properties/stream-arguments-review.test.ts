/**
 * `streamArguments` (and `reasoningCalls: 'call'`) on random blocks built to
 * be hostile to a reader that streams: every value shape the decoder knows
 * (`string="true"` / `"false"` / none, CDATA, entities, comments, nested XML,
 * lone surrogates, a `<` before the closer, `</think>`), three spellings,
 * JSON bodies, blocks the stream cuts, schemas that coerce, `onInvalid`,
 * `strict`, the reasoning and capture limits, in random chunkings and with a
 * checkpoint (through JSON) anywhere; parameters given twice, named like
 * array indexes, self-closing invokes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type SieveEvent, type SieveOptions } from '../../src/index.js'
import { checkStreamed, comparable, streamed, streamedResumed, unstreamed } from '../helpers/streamed.js'
import { chunkBy, chunkSizes, document } from './generator.js'

/** Chunk sizes, small ones mostly and now and then one over 1 KiB (past what the sieve keeps of a tag unlexed). */
const withLarge = fc.array(fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }) }, { weight: 1, arbitrary: fc.integer({ min: 1025, max: 1300 }) }), { minLength: 1, maxLength: 8 })

const families = [['<｜DSML｜', '</｜DSML｜'], ['<|DSML|', '</|DSML|'], ['<', '</']] as const
type Family = (typeof families)[number]
const values = fc.constantFrom(
  'v', 'a b', ' 5 ', '42', '1.0', '9007199254740993', '[1,"a"]', '{"k":1}', 'true', 'null', '&amp;', '&lt;x&gt;', '<![CDATA[a<b]]>',
  'a😀b', '\ud83d', 'x\ude00', 'a<', '<b>x</b>', '<name>A</name><age>3</age>', '<!-- c -->z', 'line\nline', '"q"', '\\', '\u2028', '</think>', '`', '```', '',
  // an unclosed CDATA: it runs to the stream's end, where it is cut at its parameter's closer (the `unclosedCdata` repair)
  '<![CDATA[x\n', '<![CDATA[a]', '<![CDATA[', '<![CDATA[<b>', 'a<![CDATA[1',
  // longer than the deferral's 1 KiB, so that a large chunk can hold it
  'y'.repeat(1100),
)
const param = fc.tuple(values, fc.constantFrom(null, 'true', 'false', 'TRUE', ' true '))
const invoke = fc.oneof(
  // keys may repeat (the streamed value would change: the block fails, in every chunking) and look like array indexes
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom('f', 'g', 'read_file'), fc.array(fc.tuple(fc.constantFrom('path', 'n', 'content', 'x', 'a b', '__proto__', '1', '0'), param), { maxLength: 3 })) },
  { weight: 1, arbitrary: fc.constantFrom('{"a":1,"b":"x"}', '{"arguments":{"a":1}}', '/').map((body) => ['f', body] as const) },
).map((inv) => (fam: Family) => inv[1] === '/'
  ? `${fam[0]}invoke name="${inv[0]}"/>\n`
  : typeof inv[1] === 'string'
  ? `${fam[0]}invoke name="${inv[0]}">${inv[1]}${fam[1]}invoke>\n`
  : `${fam[0]}invoke name="${inv[0]}">\n${inv[1].map(([k, [v, flag]]) => `${fam[0]}parameter name="${k}"${flag === null ? '' : ` string="${flag}"`}>${v}${fam[1]}parameter>\n`).join('')}${fam[1]}invoke>\n`)
const block = fc.tuple(fc.constantFrom(...families), fc.array(invoke, { minLength: 1, maxLength: 3 }), fc.boolean(), fc.integer({ min: 0, max: 8 })).map(([fam, invokes, wrapped, cut]) => {
  const body = invokes.map((i) => i(fam)).join('')
  const text = wrapped ? `${fam[0]}tool_calls>\n${body}${fam[1]}tool_calls>` : body
  return cut === 0 ? text.slice(0, Math.floor(text.length / 2)) : text
})
const input = fc.array(fc.oneof({ weight: 3, arbitrary: block }, { weight: 2, arbitrary: document(2) }, { weight: 1, arbitrary: fc.constantFrom('\n```\n', '`', '\n\n', '<think>', '</think>') }), { maxLength: 5 }).map((p) => p.join(''))
const schema = { type: 'object', properties: { n: { type: 'integer' }, x: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, content: { type: 'string' }, path: { enum: ['v', 'a b'] } } }
const options: fc.Arbitrary<SieveOptions> = fc.record({
  tools: fc.constantFrom(undefined, [{ name: 'f', inputSchema: schema }, 'read_file']),
  onInvalid: fc.constantFrom('emit' as const, 'reject' as const),
  strict: fc.boolean(),
  reasoningCalls: fc.constantFrom('text' as const, 'call' as const),
  startInReasoning: fc.boolean(),
  captureLimit: fc.constantFrom(undefined, 80, 300),
})

/** Deltas joined per id (they may be cut anywhere), adjacent text and reasoning joined. */
function merged(events: readonly SieveEvent[]): unknown[] {
  const out: Array<Record<string, unknown>> = []
  const args = new Map<string, { type: 'arguments'; id: string; text: string }>()
  for (const e of events) {
    const last = out[out.length - 1]
    if (e.type === 'tool-call-delta') {
      const a = args.get(e.id)
      if (a !== undefined) a.text += e.delta
      else out.push(args.set(e.id, { type: 'arguments', id: e.id, text: e.delta }).get(e.id)!)
    } else if ((e.type === 'text' || e.type === 'reasoning') && last?.type === e.type) last.text += e.text
    else out.push(e.type === 'diagnostic' || e.type === 'error' ? { ...e, message: '' } : { ...e })
  }
  return out
}

const run = (chunks: readonly string[], opts: SieveOptions, at = -1): SieveEvent[] => streamedResumed(chunks, at, opts)

describe('streamed call properties on hostile blocks', () => {
  it('should support the streaming invariants, nothing lost, and the events of a sieve without the option in any chunking', () => {
    fc.assert(
      fc.property(input, fc.oneof(chunkSizes, withLarge), options, (text, sizes, opts) => {
        const chunks = chunkBy(text, sizes)
        const s = streamed(chunks, opts)
        const given = s.rest.map((e) => (e.type === 'text' || e.type === 'reasoning' ? e.text : e.type === 'tool-call' || e.type === 'reasoning-start' || e.type === 'reasoning-end' ? e.raw : '')).join('')
        expect(given).toBe(text)
        const changed = s.rest.some((e) => (e.type === 'diagnostic' || e.type === 'error') && e.code === 'streamed-arguments-changed')
        if (!changed) expect(comparable(s.rest)).toEqual(comparable(unstreamed(chunks, opts)))
        expect(comparable(s.rest)).toEqual(comparable(streamed([text], opts).rest))
      }),
      { seed: 2611, numRuns: 150 },
    )
  })

  it('should support a checkpoint after any chunk, through JSON, giving the same events (deltas joined per id)', () => {
    fc.assert(
      fc.property(input, fc.oneof(chunkSizes, withLarge), fc.nat(), options, (text, sizes, at, opts) => {
        const chunks = chunkBy(text, sizes)
        const want = run(chunks, opts)
        checkStreamed(want)
        expect(merged(run(chunks, opts, at % Math.max(chunks.length, 1)))).toEqual(merged(want))
      }),
      { seed: 2612, numRuns: 150 },
    )
  })
})

/** A block whose parameter holds an unclosed CDATA, which the parameter's closer ends when the stream does (`unclosedCdata`). */
const unclosed = fc.record({
  fam: fc.constantFrom(...families),
  before: fc.subarray(['path', 'x'], { maxLength: 2 }),
  content: fc.constantFrom('x', 'x\n', 'a]', 'a]]', '<b>', '', ' y ', 'line\nline', '{"k":1}', '5', 'y'.repeat(1100)),
  after: fc.subarray(['content', 'n'], { maxLength: 2 }),
  more: fc.boolean(),
  wrapped: fc.boolean(),
  trailer: fc.constantFrom('', ' after', '\n\nDone.'),
}).map(({ fam, before, content, after, more, wrapped, trailer }) => {
  const p = (k: string, v: string) => `${fam[0]}parameter name="${k}">${v}${fam[1]}parameter>\n`
  const body = `${fam[0]}invoke name="f">\n${before.map((k) => p(k, 'v')).join('')}${p('cdata', `<![CDATA[${content}`)}${after.map((k) => p(k, '3')).join('')}${fam[1]}invoke>\n`
  const second = more ? `${fam[0]}invoke name="g">\n${p('x', 'w')}${fam[1]}invoke>\n` : ''
  return (wrapped ? `${fam[0]}tool_calls>\n${body}${second}${fam[1]}tool_calls>` : body + second) + trailer
})

describe('streamed calls of a block an unclosed CDATA repairs', () => {
  it('should support the same calls and arguments in every chunking, the deltas concatenating to them', () => {
    fc.assert(
      fc.property(unclosed, fc.oneof(chunkSizes, withLarge), fc.constantFrom(undefined, { name: 'f', inputSchema: schema }), (text, sizes, tool) => {
        const opts: SieveOptions = tool === undefined ? {} : { tools: [tool, 'g'] }
        const whole = streamed([text], opts)
        // the cut repairs only a block otherwise complete (a bare invoke is a repair already), and an invoke after the
        // cut would come from the section's content: the block is malformed
        const repairs = text.includes('tool_calls>') && !text.includes('name="g"')
        expect(whole.rest.some((e) => e.type === 'diagnostic' && e.code === 'repaired-cdata'), text).toBe(repairs)
        const s = streamed(chunkBy(text, sizes), opts)
        expect(comparable(s.rest), text).toEqual(comparable(whole.rest))
        expect(comparable(s.rest)).toEqual(comparable(unstreamed([text], opts)))
      }),
      { seed: 2613, numRuns: 300 },
    )
  })
})

