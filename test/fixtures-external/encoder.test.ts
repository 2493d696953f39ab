/**
 * DeepSeek's own format, as DeepSeek's official encoders write it: V3.2
 * `encoding/encoding_dsv32.py` and V4 `encoding/encoding_dsv4.py` rendering
 * seeded random assistant turns with 1–4 calls each, read back by the
 * encoders' own parser (`test/fixtures/deepseek-encoder/PROVENANCE.md`).
 *
 * Every record is fed in three chunkings (whole, one code point at a time,
 * seeded random runs of 1–16 code points) and must give, under each:
 *
 * - the record's calls in order: same name, `input` deep-equal to its
 *   `arguments`, and `arguments` equal in meaning to `arguments_json` with
 *   every number token as written (`100.0` stays `100.0`; an integer past
 *   2^53 keeps its digits in `arguments`, while `input` holds the nearest
 *   double, as `JSON.parse` of the record does);
 * - no diagnostic, and every call its own id;
 * - text: exactly the record's `content` followed by `\n\n`, the blank line
 *   the encoders put between the content and the block (they put nothing
 *   after it); the blank line is not markup, so it stays text;
 * - conservation: the text events and the calls' `raw`s, in order, are the
 *   input fed.
 *
 * Records whose `edge_classes` hold `str/dsml-exact` are left out of the
 * main test: their value contains the exact closer `</｜DSML｜parameter>`,
 * which the format cannot carry (the official parser fails them too). In
 * thinking mode the prompt ends with `<think>`, so `text` starts inside the
 * reasoning: those records are read with `startInReasoning`, and the
 * reasoning events must give the record's `reasoning` exactly.
 *
 * One decision is the sieve's: a record whose content leaves a Markdown
 * fence open (`content/unclosed-fence`, one per 500) has its block inside
 * that fence by CommonMark (an unclosed fence runs to the end), and a block
 * in fenced code is an example, never run. The official parser ignores
 * Markdown and reads the calls; toolsieve keeps its promise and gives the
 * text back. Those records have a test of their own that says so.
 *
 * With `streamArguments` every record streams its calls: each start ends in
 * its call, the deltas are its `arguments` exactly (checked by
 * `checkStreamed`), and the other events are the unstreamed run's.
 *
 * One `it` per file and chunking collects every failing record, so the
 * message names the record ids (the first 20) and how many fail.
 *
 * The `str/dsml-exact` records get a test of their own: only
 * `…-dsml-exact-00-*` holds the exact closer `</｜DSML｜parameter>` (the
 * official parser disagrees on those, `official_agrees: false`); the others
 * hold other DSML tags inside a value (`<｜DSML｜invoke name="x">`,
 * `</｜DSML｜tool_calls>`, an opening parameter tag), which the official parser
 * reads, and so must we: nothing inside a value is markup. The two it cannot
 * read must fail closed: no call, the input back as text, one malformed-block.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import { CHUNKINGS, chunkInput, encoderInput, encoderOptions, encoderProblems, failClosedProblems, readRecords } from '../helpers/fixtures-external.js'
import { comparable, streamed, unstreamed } from '../helpers/streamed.js'

const dir = fileURLToPath(new URL('../fixtures/deepseek-encoder/', import.meta.url))

/** Each file with the number of records it holds and how many of them the format cannot carry. */
const FILES = [
  { file: 'v32.jsonl', version: 'v32', records: 500, dsmlExact: 0 },
  { file: 'v4.jsonl', version: 'v4', records: 500, dsmlExact: 0 },
  { file: 'v32-sweep.jsonl', version: 'v32', records: 368, dsmlExact: 10 },
  { file: 'v4-sweep.jsonl', version: 'v4', records: 368, dsmlExact: 10 },
] as const

const SHOWN = 20

describe.each(FILES)('DeepSeek encoder records: $file', ({ file, version, records: count, dsmlExact }) => {
  const all = readRecords(dir + file)
  const inFence = (r: (typeof all)[number]) => r.features.includes('content/unclosed-fence')
  const records = all.filter((r) => !r.edge_classes.includes('str/dsml-exact') && !inFence(r))

  it('should hold the records its provenance names, each cut as documented', () => {
    expect(all.length).toBe(count)
    expect(all.length - records.length).toBe(dsmlExact + all.filter(inFence).length)
    expect(new Set(all.map((r) => r.id)).size).toBe(count)
    for (const r of records) {
      expect(r.version).toBe(version)
      expect(r.calls.length, r.id).toBeGreaterThan(0)
      expect(() => encoderInput(r), r.id).not.toThrow()
    }
  })

  it.each(CHUNKINGS)('should read every record as the official parser does (%s)', (chunking) => {
    const failures: string[] = []
    for (const record of records) {
      const problems = encoderProblems(record, chunking)
      if (problems.length > 0) failures.push(`${record.id}: ${problems.join(' | ')}`)
    }
    const message = `${failures.length} of ${records.length} records fail (${chunking}); the first ${Math.min(SHOWN, failures.length)}:\n${failures.slice(0, SHOWN).join('\n')}`
    expect(failures.length, message).toBe(0)
  })

  it.each(['code points', 'random'] as const)('should stream every record\'s calls with their arguments exact (streamArguments, %s)', (chunking) => {
    const failures: string[] = []
    for (const record of records) {
      const chunks = chunkInput(encoderInput(record), chunking, record.id)
      const s = streamed(chunks, encoderOptions(record))
      const calls = s.rest.filter((e) => e.type === 'tool-call')
      if (calls.length !== record.calls.length || s.aborts.length > 0) failures.push(`${record.id}: ${calls.length} calls, ${s.aborts.length} aborts`)
      else if (JSON.stringify(comparable(s.rest)) !== JSON.stringify(comparable(unstreamed(chunks, encoderOptions(record))))) failures.push(`${record.id}: events differ from the unstreamed run`)
    }
    expect(failures.length, failures.slice(0, SHOWN).join('\n')).toBe(0)
  })

  it('should not support a block inside a fence the content leaves open (text, no call: fenced code is an example)', () => {
    for (const record of all.filter(inFence)) {
      const input = encoderInput(record)
      const sieve = createSieve()
      const events = [...sieve.push(input), ...sieve.end()]
      expect(events.filter((e) => e.type === 'tool-call'), record.id).toEqual([])
      expect(events.map((e) => (e.type === 'text' ? e.text : '')).join(''), record.id).toBe(input)
    }
  })

  if (dsmlExact > 0) {
    it('should read the str/dsml-exact records the official parser reads, and fail closed on the others', () => {
      const failures: string[] = []
      for (const record of all.filter((r) => r.edge_classes.includes('str/dsml-exact'))) {
        for (const chunking of CHUNKINGS) {
          const problems = record.official_agrees ? encoderProblems(record, chunking) : failClosedProblems(record, chunking)
          if (problems.length > 0) failures.push(`${record.id} (${chunking}): ${problems.join(' | ')}`)
        }
      }
      expect(failures, failures.join('\n')).toEqual([])
    })
  }
})
