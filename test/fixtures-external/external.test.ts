/**
 * Other projects' DeepSeek DSML fixtures (211 cases, `test/fixtures/external/`,
 * provenance in its SOURCES.md): recorded vLLM streams of DeepSeek V4,
 * DeepSeek's own encoder tests, and the DSML parser tests of dynamo, vLLM and
 * SGLang. Each case runs in four chunkings: the source's own chunks
 * (`recorded`, plus any `extraChunkings`), whole, one code point at a time,
 * and seeded random runs of 1–16 code points.
 *
 * A format case is checked as its source expects: the calls (name, `input`
 * deep-equal, `arguments` equal to `inputJSON` with number tokens as
 * written; every call its own id), the text where the source asserts it
 * (exactly, or the substrings it asserts), and no diagnostics. Where the source's expectation is one
 * parser's policy rather than the format, {@link DECISIONS} below states ours
 * and why; those cases are checked against ours. Always, whatever the case:
 * nothing is lost (text events + the calls' `raw`s = the input fed).
 *
 * Our policies: fail closed (a block that does not parse is released
 * verbatim as text with a diagnostic, never salvaged into a call); nothing is
 * lost; a value with a `string` attribute is read exactly; `string="false"`
 * is JSON of the exact text (not JSON: kept as the string, `bad-json-value`);
 * numbers keep their digits in `arguments`; at end of stream, complete
 * invokes whose wrapper never closed are calls with an `unclosed-wrapper`
 * diagnostic, and an unfinished rest is text with `unterminated-block`.
 *
 * Reasoning (`<think>…</think>`) is the sieve's: a stream that opens with
 * `<think>` (the recorded vLLM streams, the encoder turns, two dynamo unit
 * tests) is fed whole, in its recorded chunks, and the reasoning events must
 * give the case's expected reasoning.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { comparable, streamed, unstreamed } from '../helpers/streamed.js'
import type { SieveOptions, ToolDefinition } from '../../src/types.js'
import { EXTERNAL_CHUNKINGS, externalFeeds, externalProblems, readCases, type ExternalCase, type Expected } from '../helpers/fixtures-external.js'

const CASES = readCases(fileURLToPath(new URL('../fixtures/external/cases.json', import.meta.url)))

interface Decision {
  /** Our policy, in a few words (shown in the test name). */
  decision: string
  /** Why, against what the source expects. */
  reason: string
  /** What replaces the source's expectation; a function gets the input fed. */
  expect?: Partial<Expected> | ((input: string) => Partial<Expected>)
  /** `dedupe`: identical repeated tool declarations are passed once. */
  tools?: 'dedupe'
}

const V4 = 'dynamo-parity-deepseek-v4-'
const V32 = 'dynamo-parity-deepseek-v3-2-'

const verbatim = (code: string, decision: string, reason: string): Decision => ({
  decision,
  reason,
  expect: (input) => ({ calls: [], text: input, textExcludes: [], diagnostics: [code] }),
})
const nothingLost = (text: string, reason: string): Decision => ({ decision: 'nothing lost: the text around blocks is kept', reason, expect: { text } })
const call = (name: string, input: Record<string, unknown>, inputJSON = JSON.stringify(input)): Expected['calls'][number] => ({ name, input, inputJSON })

const TEXT_DROPPED = 'dynamo keeps only the text before the first block and drops the rest; every character the model wrote is text or markup of a call, so what is outside the blocks is text'
const SHARED: Record<string, Decision> = {
  'batch-2-b': nothingLost('\n', `${TEXT_DROPPED} (vLLM's alternative keeps this newline too; SGLang's stops after the first wrapper)`),
  'batch-2-c': nothingLost('Both:  Done.', TEXT_DROPPED),
  'batch-8-b': nothingLost(' Let me know if you need more.', TEXT_DROPPED),
  'batch-8-c': nothingLost('I will check the weather.  Let me know if you need more.', TEXT_DROPPED),
  'batch-8-d': nothingLost('I will check the weather.  Then check LA weather. ', TEXT_DROPPED),
  'batch-8-a': { decision: 'as source', reason: "SGLang's alternative trims the space before the block; the space is the model's text, kept as dynamo does" },
  'batch-4-a': {
    decision: 'a mention: text, no diagnostic',
    reason: 'no invoke ever opens, so nothing looked like a call: a wrapper pair around prose is a mention (test/sieve/mentions.test.ts, "mentions on separate lines"); dynamo swallows it (text ""), which loses input; vLLM keeps it, as we do',
    expect: (input) => ({ calls: [], text: input, diagnostics: [] }),
  },
  'batch-4-c': verbatim('malformed-block', 'fail closed', 'an invoke without a name is a broken call: released verbatim (as vLLM does), not swallowed (dynamo: text "")'),
  'batch-4-d': verbatim('unterminated-block', 'fail closed: the value never closes', 'a string="true" value closes only at the exact </｜DSML｜parameter>, which never comes, so the stream ends inside the block; dynamo salvages a `{}` call, which would run without its argument'),
  'batch-5-a': { decision: 'unclosed-wrapper repair', reason: 'the complete invoke is a call, as dynamo has it, and the repair is reported (vLLM leaks it as text; SGLang drops it)', expect: { diagnostics: ['unclosed-wrapper'] } },
  'batch-5-b': { decision: 'as source: missing opening wrapper repaired', reason: "the grammar's missingOpeningWrapper repair makes the invoke before an orphan closer a call, as dynamo does (vLLM and SGLang keep it as text). DESIGN.md says repairs produce a diagnostic, but no code is declared for this one, so none is expected" },
  'batch-5-c': verbatim('unterminated-block', 'fail closed: truncated', 'the stream ends inside the only invoke: no call, and the markup is text, not dropped (dynamo: text "")'),
  'batch-5-d': { decision: 'unclosed-wrapper repair', reason: 'both invokes are complete: calls, as dynamo has them, and the repair is reported', expect: { diagnostics: ['unclosed-wrapper'] } },
  'batch-5-e': {
    decision: 'unclosed-wrapper repair, the unfinished rest verbatim',
    reason: 'the complete Boston invoke is a call; the unfinished New York invoke after it is released as text with unterminated-block (dynamo drops it, which loses input)',
    expect: (input) => {
      const close = '</｜DSML｜invoke>'
      return { text: input.slice(0, input.indexOf('<｜DSML｜')) + input.slice(input.indexOf(close) + close.length), diagnostics: ['unclosed-wrapper', 'unterminated-block'] }
    },
  },
  'batch-7-f': { decision: 'as source: digits kept', reason: "the literal's digits are kept in `arguments` (vLLM rounds it through a double); `input` holds the nearest double, since a JS number cannot hold it" },
  'batch-13': { decision: 'emitted with unknown-tool', reason: 'a call to an undeclared tool is still a call (as dynamo and vLLM); with `tools` given it carries an unknown-tool diagnostic (onInvalid: emit). SGLang drops it', expect: { diagnostics: ['unknown-tool'] } },
  'batch-2-d': { decision: 'as source; tools deduplicated', reason: 'the fixture lists the same get_weather declaration twice (one YAML alias per expected call); createSieve refuses a tool declared twice, which is option validation, not the format, so the harness passes it once', tools: 'dedupe' },
  'stream-4-a': { decision: 'unclosed-wrapper repair', reason: 'the stream stops after a complete invoke: a call, with the repair reported', expect: { diagnostics: ['unclosed-wrapper'] } },
  'stream-4-b': verbatim('unterminated-block', 'fail closed: truncated', 'the stream ends inside the only invoke: no call (SGLang salvages `{}`), and the markup is text, not dropped'),
  'stream-4-c': verbatim('malformed-block', 'fail closed: no wrapper, stray closers', 'a bare invoke followed by two stray </｜DSML｜invoke> closers and no wrapper at all is not a well-formed block; dynamo and vLLM make a call of the first invoke, which is a guess'),
}

const DECISIONS: Record<string, Decision> = {
  ...Object.fromEntries(Object.entries(SHARED).flatMap(([k, d]) => [[V4 + k, d], [V32 + k, d]])),
  [`${V4}batch-5-f`]: nothingLost('\n', 'the bare invoke before an orphan closer is repaired (missingOpeningWrapper) and the wrapped block after it is a call, as dynamo has it; the newline between them is text (dynamo drops it, vLLM keeps it)'),
  [`${V4}batch-5-g`]: nothingLost('I will check that. ', 'the bare invoke before an orphan closer is repaired (missingOpeningWrapper); the space before it is text (dynamo trims it)'),
  'dynamo-rust-dsml-parse-with-normal-text': nothingLost("Here's the result: ", 'the source compares normal.trim(); we keep the text exactly, space included'),
  'dynamo-rust-dsml-parse-deepseek-v4-multiple-tool-calls': nothingLost("Let's check this. ", 'the source compares normal.trim(); we keep the text exactly, space included'),
  'dynamo-rust-dsml-multi-block-drops-inter-and-trailing-text': nothingLost('pre  middle  tail', 'dynamo (like vLLM) drops the text between and after blocks; we keep it. No DSML markup in the text still holds'),
  'dynamo-rust-dsml-empty-invokes-does-not-leak-dsml-markup': verbatim('malformed-block', 'fail closed: verbatim, markup included', 'an invoke that never closes inside a closed block does not parse: no call (as the source), and the block is released verbatim, so its markup is in the text (the source drops it; we lose nothing)'),
  'dynamo-rust-dsml-unterminated-block-followed-by-valid-block': verbatim('malformed-block', 'fail closed', "the first block's invoke never closes, so that block (up to the first </｜DSML｜tool_calls>) does not parse and is text; scanning never resumes inside what was an invoke, so `ok` is no call either. The source's `broken` {} call is its regex pairing the open invoke with the only </invoke>"),
  'dynamo-rust-dsml-parse-deepseek-v4-missing-invoke-close-drops-call': verbatim('malformed-block', 'fail closed', 'no call, as the source pins; the block is text and reported'),
  'dynamo-rust-dsml-parse-deepseek-v4-missing-parameter-close-loses-param': verbatim('unterminated-block', 'fail closed: the value never closes', 'the source salvages the call without x and calls that a bug; the string="true" value closes only at the exact closer, so the stream ends inside the block: no call'),
  'dynamo-rust-dsml-parse-deepseek-v4-middle-invoke-truncation-corrupts-next': verbatim('malformed-block', 'fail closed', "invoke a never closes before invoke b opens: the block does not parse; the source's call a with b's parameter (pinned as a bug there) would run a call nobody wrote"),
  'dynamo-rust-dsml-parse-deepseek-v4-missing-end-token-with-recovery': { decision: 'unclosed-wrapper repair', reason: 'the complete invoke is a call at end of stream, as the source recovers it, with the repair reported', expect: { diagnostics: ['unclosed-wrapper'] } },
  'dynamo-rust-dsml-parse-deepseek-v4-missing-end-token-multiple-calls-with-recovery': { decision: 'unclosed-wrapper repair', reason: 'both invokes are complete: calls, with the repair reported', expect: { diagnostics: ['unclosed-wrapper'] } },
  'dynamo-rust-dsml-parse-string-false-with-bare-word-value': { decision: 'kept as string, bad-json-value', reason: 'string="false" claims JSON; `quickly` is not, so the text is kept as the string (as the source) and reported', expect: { diagnostics: ['bad-json-value'] } },
  'dynamo-rust-dsml-parse-deepseek-v4-malformed-json-value-falls-back-to-string': { decision: 'kept as string, bad-json-value', reason: 'string="false" text that is not JSON is kept as the string (as the source) and reported', expect: { diagnostics: ['bad-json-value'] } },
  'vllm-v32-args-before-invoke-completes': verbatim('unterminated-block', 'fail closed: truncated', 'the source asserts only argument deltas for the open call; the invoke never closes, so at end of stream there is no complete invoke: no call, the markup is text'),
  'vllm-v32-string-true-coerced-by-schema': { decision: 'as source: schema coercion', reason: 'the value is read exactly ("42"), then the tool schema (integer) coerces it, as vLLM does' },
  'vllm-v32-stream-string-true-coerced': { decision: 'as source: schema coercion', reason: 'the value is read exactly ("42"), then the integer schema coerces it' },
  'vllm-v32-string-true-composed-schema': { decision: 'as source: schema coercion', reason: 'the exact text is JSON of an object; the anyOf[object, null] schema reads it as one' },
  'vllm-v32-null-back-to-string': { decision: 'as source: a string schema keeps the text', reason: 'with a string schema the value is the text as written ("null"), even under string="false" (README, Tools and schemas)' },
  'vllm-v32-arguments-wrapper': { decision: 'no unwrapping', reason: 'a parameter is the key it names: the markup says `arguments`, so the input is {arguments: {...}}; unwrapping it because the schema lacks the key (vLLM) is a repair by guess', expect: { calls: [call('get_weather', { arguments: { location: 'Beijing' } })] } },
  'vllm-v32-input-wrapper': { decision: 'no unwrapping, exact string', reason: 'the markup says parameter `input` with string="true": the exact text, as a string; vLLM parses and unwraps it by guess', expect: { calls: [call('get_weather', { input: '{"location":"Beijing"}' })] } },
  'vllm-v32-number-param': { decision: 'digits kept', reason: 'numbers keep their digits in `arguments`: 5.0 stays 5.0 there (Python turns it into int 5); `input` holds the number 5 either way', expect: { calls: [call('measure', { ratio: 3.14, whole: 5 }, '{"ratio":3.14,"whole":5.0}')] } },
  'vllm-v32-multi-typed-schema': { decision: 'kept as string, bad-json-value', reason: 'string="false" `hello` is not JSON: the string is kept (the schema allows it, as the source has it) and reported', expect: { diagnostics: ['bad-json-value'] } },
  'vllm-v32-stream-conversion-fallbacks': {
    decision: 'digits kept; bad JSON and schema misses reported',
    reason: 'the values are the source\'s; `hello` and `abc` under string="false" are not JSON (bad-json-value each), `abc` fails the integer schema (invalid-arguments), and whole_number keeps its digits 3.0 in `arguments`',
    expect: {
      calls: [call('coerce', { union_value: 'hello', bad_int: 'abc', nullable_string: null, null_string: 'null', whole_number: 3 }, '{"union_value":"hello","bad_int":"abc","nullable_string":null,"null_string":"null","whole_number":3.0}')],
      diagnostics: ['bad-json-value', 'bad-json-value', 'invalid-arguments'],
    },
  },
  'vllm-v4-function-calls-block-not-accepted': { decision: 'one grammar for V3.2 and V4', reason: "vLLM's V4 parser refuses V3.2's function_calls wrapper; our default grammar reads both wrappers, so the block is a call", expect: { calls: [call('search', { query: 'vllm' })], text: '' } },
  'sglang-v32-detect-xml-format': { decision: 'Markdown guard: indented code', reason: 'the block is indented 8 spaces after a blank line (the Python source\'s indentation), which is an indented code block in CommonMark: text, no call', expect: (input) => ({ calls: [], text: input, diagnostics: [] }) },
  'sglang-v32-detect-json-format': { decision: 'Markdown guard: indented code', reason: 'indented 8 spaces after a blank line: an indented code block, so text, no call', expect: (input) => ({ calls: [], text: input, diagnostics: [] }) },
  'sglang-v32-non-json-object-param': { decision: 'kept as string, reported', reason: 'string="false" text that is not JSON is kept as the string (as the source), with bad-json-value, and it fails the object schema (invalid-arguments); the call is emitted (onInvalid: emit)', expect: { diagnostics: ['bad-json-value', 'invalid-arguments'] } },
  'sglang-v4-non-json-object-param': { decision: 'kept as string, reported', reason: 'as sglang-v32-non-json-object-param', expect: { diagnostics: ['bad-json-value', 'invalid-arguments'] } },
  'sglang-dsv32-dialect-string-false': { decision: 'a string schema keeps the text', reason: 'the tool schema says x is a string, so the value is the text "42" (as vLLM has it in vllm-v32-null-back-to-string); SGLang JSON-decodes it against the schema', expect: { calls: [call('get_weather', { x: '42' })] } },
  'sglang-dsv32-dialect-no-string-flag': { decision: 'a string schema keeps the text', reason: 'no string attribute and a string schema: the text as written, "42"; SGLang JSON-decodes it against the schema', expect: { calls: [call('get_weather', { x: '42' })] } },
  'sglang-dsv32-dialect-unknown-tool': { decision: 'emitted with unknown-tool', reason: 'a call to an undeclared tool is still a call (as the source) and carries unknown-tool', expect: { diagnostics: ['unknown-tool'] } },
  'sglang-v32-detector-ignores-plain-xml': { decision: 'plain XML is a spelling', reason: "SGLang's DSV32 detector reads only DSML; plain <tool_calls> is one of our grammar's spellings, so it is a call", expect: { calls: [call('x', { a: '1' })], text: '' } },
}

// DeepSeek's encoder writes the content, `\n\n`, then the block; the dynamo
// cases expect the message's content, so where there are calls the text is
// that content plus the blank line, which is not markup and stays text.
for (const c of CASES) {
  if (!c.source.startsWith('dynamo-encoder') || c.expect.calls.length === 0) continue
  DECISIONS[c.id] = { decision: 'the blank line before the block is text', reason: 'the encoder renders content + "\\n\\n" + block; the source expects the message content', expect: { text: `${c.expect.text ?? ''}\n\n` } }
}

function expectedOf(c: ExternalCase, input: string): Expected {
  const base: Expected = { calls: c.expect.calls, text: c.expect.text, textIncludes: c.expect.textIncludes ?? [], textExcludes: c.expect.textExcludes ?? [], diagnostics: [] }
  const override = DECISIONS[c.id]?.expect
  return { ...base, ...(typeof override === 'function' ? override(input) : override) }
}

function optionsOf(c: ExternalCase): SieveOptions {
  if (c.tools === undefined) return {}
  let tools = c.tools as ToolDefinition[]
  if (DECISIONS[c.id]?.tools === 'dedupe') tools = tools.filter((t, i) => tools.findIndex((u) => JSON.stringify(u) === JSON.stringify(t)) === i)
  return { tools }
}

describe('external DeepSeek DSML fixtures', () => {
  it('should hold the 211 cases its SOURCES.md names, and a decision only for cases that exist', () => {
    expect(CASES.length).toBe(211)
    expect(new Set(CASES.map((c) => c.id)).size).toBe(211)
    const ids = new Set(CASES.map((c) => c.id))
    expect(Object.keys(DECISIONS).filter((id) => !ids.has(id))).toEqual([])
    for (const c of CASES) expect(() => externalFeeds(c, 'recorded'), c.id).not.toThrow()
  })
})

describe.each(EXTERNAL_CHUNKINGS)('external DeepSeek DSML fixtures (%s)', (chunking) => {
  for (const c of CASES) {
    const decision = DECISIONS[c.id]
    it(decision === undefined ? c.id : `${c.id} [${decision.decision}]`, () => {
      const input = externalFeeds(c, 'recorded')[0]!.chunks.join('')
      const problems = externalProblems(c, expectedOf(c, input), chunking, optionsOf(c))
      const where = `${c.id} (${c.source}: ${c.origin.path}${c.origin.test === undefined ? '' : ` ${c.origin.test}`})`
      expect(problems, `${where}\n${problems.join('\n')}`).toEqual([])
    })
  }
})

describe('external DeepSeek DSML fixtures with streamArguments (recorded chunks)', () => {
  it('should support every case streaming its calls: each start ends once, deltas are the arguments, the rest is the unstreamed run', () => {
    const failures: string[] = []
    for (const c of CASES) {
      for (const { label, chunks } of externalFeeds(c, 'recorded')) {
        const options = optionsOf(c)
        try {
          const s = streamed(chunks, options)
          const changed = s.rest.some((e) => e.type === 'diagnostic' && e.code === 'streamed-arguments-changed')
          if (!changed && JSON.stringify(comparable(s.rest)) !== JSON.stringify(comparable(unstreamed(chunks, options)))) failures.push(`${c.id} ${label}: events differ from the unstreamed run`)
        } catch (e) {
          failures.push(`${c.id} ${label}: ${(e as Error).message.split('\n')[0]}`)
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
  })
})
