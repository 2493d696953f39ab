/**
 * The model's own call ids. A pack read whole whose calls carry an id
 * (Kimi K2's head `functions.f:0`, Mistral's `"id"` field) gives it to the
 * call event's `id`, so a caller can match tool results by it and write the
 * history back as the model wrote it. Ids stay unique in the stream and
 * safe to pass on: an id that is too long, holds a control, format or blank
 * character, or was given to an earlier call gets a made id instead, with an
 * `invalid-call-id` diagnostic. A caller's `generateId` makes every id.
 * Kimi K3's `index` is the call's position, not an id: never used.
 *
 * The inputs are copied from `../shared/fixtures/dialects/` (each names its
 * file and case); the edge cases are those inputs edited.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, formatToolCalls, parseToolCalls, validateDialect } from '../../src/index.js'
import { dialects } from '../../src/dialects/registry.js'
import { readJsonEndBlock } from '../../src/read/read-json-end.js'
import { maxModelIds } from '../../src/sieve/ids.js'
import type { SieveEvent, SieveOptions, ToolCallEvent } from '../../src/types.js'
import { codes, expectChunkInvariant, ID, ID_PATTERN } from '../helpers/chunking.js'
import { throughJson } from '../helpers/checkpoint.js'

/** kimi-k2.json `parallel_tool_calls` (vLLM tests/tool_parsers/test_kimi_k2_tool_parser.py@0825a6c3). */
const kimiParallel = 'Compare weather. <|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0 <|tool_call_argument_begin|>{"city": "Beijing"}<|tool_call_end|><|tool_call_begin|>functions.get_weather:1 <|tool_call_argument_begin|>{"city": "Shanghai"}<|tool_call_end|><|tool_calls_section_end|>'

/** rendered/rendered-kimi-k2-thinking.json `rendered_02-s1` (llama.cpp models/templates/moonshotai-Kimi-K2-Thinking.jinja@0c3c896e, rendered with jinja2). */
const kimiRendered = '<think></think>Sure, let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.lookup:0<|tool_call_argument_begin|>{"path": ["q\\"uote", 9, true]}<|tool_call_end|><|tool_call_begin|>functions.calc.add:1<|tool_call_argument_begin|>{"options": "it\'s fine"}<|tool_call_end|><|tool_calls_section_end|>'

/** rendered/rendered-mistral-small-3.1.json `rendered_02-s1` (llama.cpp models/templates/mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja@9190da22, rendered with jinja2): the template keeps an id's last nine characters. */
const mistralRendered = '[TOOL_CALLS] [{"name": "send_email", "arguments": {"ratio": "#!/bin/sh\\necho hi\\n", "command": "{\\"looks\\": \\"json\\"}", "query": false}, "id": "d_email:0"}, {"name": "create_event", "arguments": {"tags": 7, "command": true, "note": {"k": "v w", "n": 68, "nested": {"ok": false, "list": [1, 2]}}, "limit": 123456789}, "id": "e_event:1"}]'

/** rendered/rendered-kimi-k3.json `rendered_02-s1` (llama.cpp models/templates/Kimi-K3.jinja@181a4a8f, rendered with jinja2): `index` is the call's place, `loop.index`. */
const kimi3Rendered = '<|close|>think<|sep|><|open|>response<|sep|>Calling the tool now:<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="calc.add" index="1"<|sep|><|open|>argument key="command" type="number"<|sep|>2.75<|close|>argument<|sep|><|open|>argument key="limit" type="null"<|sep|>null<|close|>argument<|sep|><|open|>argument key="tags" type="string"<|sep|>    if x:\n        return 1<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="todo-write" index="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>'

/** A Kimi K2 section of one call with `head` (the fixture's first call, its head replaced). */
const kimiSection = (head: string, city = 'Beijing') => `<|tool_calls_section_begin|><|tool_call_begin|>${head} <|tool_call_argument_begin|>{"city": "${city}"}<|tool_call_end|><|tool_calls_section_end|>`

/** A Mistral array of one call with the JSON text `id` as its id (the fixture's first call, shortened). */
const mistralCall = (id: string) => `[TOOL_CALLS] [{"name": "send_email", "arguments": {"query": false}, "id": ${id}}]`

const k2: SieveOptions = { dialect: 'kimi-k2' }
const mistral: SieveOptions = { dialect: 'mistral' }

/** Hermes with an `"id"` field in its call object: a closed block whose JSON carries an id, read by the closed blocks' reader (Mistral's blocks end with their JSON, read by another). */
const hermesIds: SieveOptions = {
  dialect: validateDialect((() => {
    const pack = structuredClone(dialects.hermes!) as unknown as { name: string; blocks: Array<{ call: Record<string, unknown> }> }
    pack.name = 'hermes-ids'
    for (const b of pack.blocks) b.call.id = { from: 'json-field', field: 'id', template: 'call_{index}' }
    return pack
  })()),
}
const hermesCall = (id: string) => `<tool_call>\n{"name": "send_email", "arguments": {"query": false}, "id": ${id}}\n</tool_call>`

/** `n` Mistral calls, each its own block, with the ids `c0`, `c1`…. */
const mistralCalls = (n: number) => Array.from({ length: n }, (_, i) => `${mistralCall(`"c${i}"`)}\n`).join('')

function run(input: string, opts: SieveOptions): SieveEvent[] {
  const sieve = createSieve(opts)
  return [...sieve.push(input), ...sieve.end()]
}

const callsIn = (events: readonly SieveEvent[]): ToolCallEvent[] => events.filter((e): e is ToolCallEvent => e.type === 'tool-call')
const idsOf = (events: ReadonlyArray<{ type: string; id?: string }>): string[] => events.flatMap((e) => (e.type === 'tool-call' ? [e.id!] : []))

describe('call ids the model wrote', () => {
  it("should support a Kimi K2 call's head as its id, in every chunking", () => {
    expect(idsOf(expectChunkInvariant(kimiParallel, k2))).toEqual(['functions.get_weather:0', 'functions.get_weather:1'])
    expect(idsOf(expectChunkInvariant(kimiRendered, k2))).toEqual(['functions.lookup:0', 'functions.calc.add:1'])
  })

  it("should support a Mistral call's id field as its id, in every chunking", () => {
    expect(idsOf(expectChunkInvariant(mistralRendered, mistral))).toEqual(['d_email:0', 'e_event:1'])
  })

  it('should support the same id on the streamed start and deltas as on the call', () => {
    const events = run(kimiParallel, { ...k2, streamArguments: true })
    const started = events.flatMap((e) => (e.type === 'tool-call-start' ? [e.id] : []))
    const deltas = new Set(events.flatMap((e) => (e.type === 'tool-call-delta' ? [e.id] : [])))
    expect(started).toEqual(['functions.get_weather:0', 'functions.get_weather:1'])
    expect([...deltas]).toEqual(started)
    expect(idsOf(events)).toEqual(started)
  })

  it('should support parseToolCalls giving the model ids too', () => {
    expect(parseToolCalls(mistralRendered, mistral).calls.map((c) => c.id)).toEqual(['d_email:0', 'e_event:1'])
  })

  it('should support generateId making every id: the markup\'s ids are not used', () => {
    let n = 0
    const events = run(kimiParallel, { ...k2, generateId: () => `mine-${++n}` })
    expect(idsOf(events)).toEqual(['mine-1', 'mine-2'])
    expect(codes(events)).toEqual([])
  })

  it('should support a made id for a call whose markup carries none (Hermes)', () => {
    const events = run('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', { dialect: 'hermes' })
    expect(idsOf(events)[0]).toMatch(ID_PATTERN)
  })

  it("should not support Kimi K3's index as an id: it is the call's place in the block, 1 in every message", () => {
    const events = run(kimi3Rendered, { dialect: 'kimi-k3' })
    expect(callsIn(events).map((c) => c.name)).toEqual(['calc.add', 'todo-write'])
    for (const id of idsOf(events)) expect(id).toMatch(ID_PATTERN)
    expect(codes(events)).toEqual([])
  })

  it('should support writing a call back with the id the model gave it', () => {
    // the model counts its calls over the whole conversation: the third call of it is `:2`
    const input = kimiSection('functions.get_weather:2')
    const [call] = callsIn(run(input, k2))
    expect(formatToolCalls([call!], { dialect: 'kimi-k2' })).toContain('<|tool_call_begin|>functions.get_weather:2<|tool_call_argument_begin|>')
    const [m1, m2] = callsIn(run(mistralRendered, mistral))
    expect(formatToolCalls([m1!, m2!], { dialect: 'mistral', variant: 'array' })).toBe(mistralRendered)
  })
})

describe('call ids the model wrote that are not used', () => {
  it('should not support an id given to an earlier call of the block: the later call gets a made id and a diagnostic', () => {
    const input = kimiParallel.replace('functions.get_weather:1', 'functions.get_weather:0')
    const events = expectChunkInvariant(input, k2)
    expect(idsOf(events)).toEqual(['functions.get_weather:0', ID])
    expect(codes(events)).toEqual(['invalid-call-id'])
    const second = callsIn(run(input, k2))[1]!
    expect(second.id).toMatch(ID_PATTERN)
    expect(second.diagnostics?.map((d) => d.code)).toEqual(['invalid-call-id'])
    expect(second.diagnostics?.[0]?.message).toContain('functions.get_weather:0')
  })

  it('should not support an id given to a call of an earlier block of the stream', () => {
    const input = `${kimiSection('functions.get_weather:0')} then ${kimiSection('functions.get_weather:0', 'Shanghai')}`
    const events = expectChunkInvariant(input, k2)
    expect(idsOf(events)).toEqual(['functions.get_weather:0', ID])
    expect(codes(events)).toEqual(['invalid-call-id'])
  })

  it('should not support an id a call in the reasoning took (reasoningCalls: call)', () => {
    const input = `<think>Draft: ${kimiSection('functions.get_weather:0')}</think>Now: ${kimiSection('functions.get_weather:0', 'Shanghai')}`
    const events = expectChunkInvariant(input, { ...k2, reasoningCalls: 'call' })
    expect(idsOf(events)).toEqual(['functions.get_weather:0', ID])
    expect(codes(events)).toEqual(['invalid-call-id'])
  })

  it('should support an id of a block that went out as text: it was no call', () => {
    // a block equal to one of the quoted calls is text; the same id on another call later is that call's
    const quotedBlock = kimiSection('functions.get_weather:0')
    const input = `As you wrote: ${quotedBlock} Now: ${kimiSection('functions.get_weather:0', 'Shanghai')}`
    const events = expectChunkInvariant(input, { ...k2, quoted: [quotedBlock] })
    expect(idsOf(events)).toEqual(['functions.get_weather:0'])
    expect(codes(events)).toEqual(['quoted-example'])
    // and a block onInvalid: 'reject' released: its call had the id, and had it for nothing
    const tools = [{ name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } }]
    const refused = kimiSection('functions.get_weather:0').replace('"Beijing"}', '"Beijing", "x": 1}')
    const rejected = run(`${refused} ${kimiSection('functions.get_weather:0', 'Shanghai')}`, { ...k2, onInvalid: 'reject', tools })
    expect(callsIn(rejected).map((c) => [c.id, c.input])).toEqual([['functions.get_weather:0', { city: 'Shanghai' }]])
  })

  it('should not support an id of more than 128 characters', () => {
    const long = 'x'.repeat(129)
    for (const [input, opts] of [[mistralCall(JSON.stringify(long)), mistral], [kimiSection(`functions.get_weather:${'0'.repeat(120)}`), k2]] as const) {
      const events = expectChunkInvariant(input, opts)
      expect(idsOf(events), input.slice(0, 40)).toEqual([ID])
      expect(codes(events)).toEqual(['invalid-call-id'])
    }
    expect(idsOf(run(mistralCall(JSON.stringify('x'.repeat(128))), mistral))).toEqual(['x'.repeat(128)])
  })

  it('should not support an id holding a control, format or blank character, or half a surrogate pair', () => {
    for (const bad of ['ab\\u0000cdefg', 'abc\\ndefgh', 'abc\\u007fdefg', 'abc\\u0085defg', 'ab\\u200bcdefg', 'ab\\u202ecdefg', 'abc defghi', 'abc\\u00a0defg', 'abc\\u2028defg', 'abc\\ud800defg', 'abc\\udc00defg', '\\ufeffabcdefgh']) {
      const events = run(mistralCall(`"${bad}"`), mistral)
      expect(idsOf(events), bad).toHaveLength(1)
      expect(idsOf(events)[0], bad).toMatch(ID_PATTERN)
      expect(codes(events), bad).toEqual(['invalid-call-id'])
    }
    // letters of any script, symbols and a whole surrogate pair are printable
    for (const good of ['résumé_01', 'ид-7', '呼叫:1', 'call😀9', 'a.b:c/d']) expect(idsOf(run(mistralCall(JSON.stringify(good)), mistral)), good).toEqual([good])
  })

  it('should support an empty id as no id: a made id, no diagnostic', () => {
    const events = run(mistralCall('""'), mistral)
    expect(idsOf(events)[0]).toMatch(ID_PATTERN)
    expect(codes(events)).toEqual([])
  })

  it('should support an id written with JSON escapes: the id is the string they write, in every chunking', () => {
    const events = expectChunkInvariant(mistralCall('"r\\u00e9sum\\u00e9_01"'), mistral)
    expect(idsOf(events)).toEqual(['résumé_01'])
    expect(codes(events)).toEqual([])
  })

  it('should not support an id that is no string (a number, true, a list, an object): the call is good, with a made id and a diagnostic, in every chunking', () => {
    for (const [bad, what] of [['123', 'the number 123'], ['1.50', 'the number 1.50'], ['true', 'true'], ['["a"]', 'an array'], ['{"a": 1}', 'an object']]) {
      // both readers of a JSON call object alike: a block that ends with its JSON (Mistral's), a closed one
      for (const [input, opts] of [[mistralCall(bad!), mistral], [hermesCall(bad!), hermesIds]] as const) {
        const events = expectChunkInvariant(input, opts)
        expect(idsOf(events), input).toEqual([ID])
        expect(codes(events), input).toEqual(['invalid-call-id'])
        const call = callsIn(run(input, opts))[0]!
        expect(call.input, input).toEqual({ query: false })
        expect(call.diagnostics?.[0]?.message, input).toBe(`the model's call id is ${what!}, not a string; the call got a default id`)
      }
    }
  })

  it('should support an id of null as no id, as an empty one: a made id, no diagnostic', () => {
    for (const [input, opts] of [[mistralCall('null'), mistral], [hermesCall('null'), hermesIds], [hermesCall('""'), hermesIds]] as const) {
      const events = run(input, opts)
      expect(idsOf(events)[0], input).toMatch(ID_PATTERN)
      expect(codes(events), input).toEqual([])
    }
    expect(idsOf(run(hermesCall('"h_1"'), hermesIds))).toEqual(['h_1'])
  })

  it('should support a reader leaving an empty id out: no call it reads has an empty id', () => {
    const read = readJsonEndBlock(dialects.mistral!, mistralCall('""'))
    expect(read.ok && read.calls.map((c) => Object.hasOwn(c, 'id'))).toEqual([false])
  })

  it(`should not support more than ${maxModelIds} ids of the model's own in a stream: later calls get made ids and a diagnostic, and memory stays bounded`, () => {
    const sieve = createSieve(mistral)
    const events = [...sieve.push(mistralCalls(maxModelIds + 3)), ...sieve.end()]
    const ids = idsOf(events)
    expect(ids.slice(0, maxModelIds)).toEqual(Array.from({ length: maxModelIds }, (_, i) => `c${i}`))
    for (const id of ids.slice(maxModelIds)) expect(id).toMatch(ID_PATTERN)
    expect(new Set(ids).size).toBe(ids.length)
    const diagnostics = events.filter((e) => e.type === 'diagnostic')
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid-call-id', 'invalid-call-id', 'invalid-call-id'])
    expect(diagnostics[0]!.message).toContain(`${maxModelIds} ids of the model's own`)
    // the ids a checkpoint carries stop at the cap, however many calls follow
    const more = createSieve(mistral)
    more.push(mistralCalls(maxModelIds + 200))
    expect((throughJson(more).state as { modelIds: string[] }).modelIds).toHaveLength(maxModelIds)
  })

  it(`should not support more than ${maxModelIds} ids across a block: the calls past it in the block get made ids`, () => {
    const many = `[TOOL_CALLS] [${Array.from({ length: maxModelIds + 2 }, (_, i) => `{"name": "f", "arguments": {}, "id": "c${i}"}`).join(', ')}]`
    const ids = idsOf(run(many, mistral))
    expect(ids.slice(0, maxModelIds)).toEqual(Array.from({ length: maxModelIds }, (_, i) => `c${i}`))
    expect(ids.slice(maxModelIds).every((id) => ID_PATTERN.test(id))).toBe(true)
  })

  it("should not support onInvalid: 'reject' refusing a call for its id: the call is good", () => {
    const input = kimiParallel.replace('functions.get_weather:1', 'functions.get_weather:0')
    expect(callsIn(run(input, { ...k2, onInvalid: 'reject' }))).toHaveLength(2)
  })

  it('should support strict mode making the diagnostic an error', () => {
    const r = parseToolCalls(kimiParallel.replace('functions.get_weather:1', 'functions.get_weather:0'), { ...k2, strict: true })
    expect(r.calls).toHaveLength(2)
    expect(r.errors.map((e) => e.code)).toEqual(['invalid-call-id'])
  })
})

describe('call ids the model wrote, across a checkpoint', () => {
  const input = `${kimiSection('functions.get_weather:0')} then ${kimiSection('functions.get_weather:0', 'Shanghai')} and ${kimiSection('functions.get_weather:1', 'Tokyo')}`
  const straight = run(input, k2)

  it('should support resuming anywhere with the same ids: one given before the checkpoint is not given again', () => {
    const shape = (events: readonly SieveEvent[]) => idsOf(events).map((id) => (ID_PATTERN.test(id) ? ID : id))
    expect(shape(straight)).toEqual(['functions.get_weather:0', ID, 'functions.get_weather:1'])
    for (let i = 0; i <= input.length; i++) {
      const first = createSieve(k2)
      const events = first.push(input.slice(0, i))
      const resumed = createSieve({ ...k2, resume: throughJson(first) })
      events.push(...resumed.push(input.slice(i)), ...resumed.end())
      expect(shape(events), `checkpoint at ${i}`).toEqual(shape(straight))
      expect(codes(events), `checkpoint at ${i}`).toEqual(['invalid-call-id'])
    }
  })

  it('should not support a checkpoint whose given ids are not ids the sieve could have given', () => {
    const sieve = createSieve(k2)
    sieve.push(kimiSection('functions.get_weather:0'))
    const cp = throughJson(sieve)
    const edit = (ids: unknown) => ({ ...cp, state: { ...(cp.state as object), modelIds: ids } })
    for (const bad of ['functions.get_weather:0', [1], ['a', 'a'], [''], ['x'.repeat(129)], ['a\nb']]) {
      expect(() => createSieve({ ...k2, resume: edit(bad) }), JSON.stringify(bad)).toThrow(expect.objectContaining({ code: 'invalid-checkpoint', field: 'resume.state.modelIds' }))
    }
  })

  it('should not support a checkpoint whose given ids have a hole: it is no list of ids', () => {
    const sieve = createSieve(k2)
    sieve.push(kimiSection('functions.get_weather:0'))
    // a checkpoint kept in memory, not through JSON (which writes a hole as null)
    const cp = sieve.checkpoint()
    // eslint-disable-next-line no-sparse-arrays
    const holed = { ...cp, state: { ...(cp.state as object), modelIds: [, 'a'] } }
    expect(() => createSieve({ ...k2, resume: holed })).toThrow(expect.objectContaining({ code: 'invalid-checkpoint', field: 'resume.state.modelIds' }))
  })

  it(`should not support a checkpoint carrying more than the ${maxModelIds} ids a stream remembers`, () => {
    const sieve = createSieve(k2)
    sieve.push(kimiSection('functions.get_weather:0'))
    const cp = throughJson(sieve)
    const edit = (n: number) => ({ ...cp, state: { ...(cp.state as object), modelIds: Array.from({ length: n }, (_, i) => `c${i}`) } })
    expect(() => createSieve({ ...k2, resume: edit(maxModelIds) })).not.toThrow()
    expect(() => createSieve({ ...k2, resume: edit(maxModelIds + 1) })).toThrow(expect.objectContaining({ code: 'invalid-checkpoint', field: 'resume.state.modelIds' }))
  })

  it('should support a checkpoint taken before any model id was given (one of an earlier version)', () => {
    const sieve = createSieve(k2)
    sieve.push('Compare weather. ')
    const cp = throughJson(sieve)
    expect('modelIds' in (cp.state as object)).toBe(false)
    const resumed = createSieve({ ...k2, resume: cp })
    expect(idsOf([...resumed.push(kimiSection('functions.get_weather:0')), ...resumed.end()])).toEqual(['functions.get_weather:0'])
  })
})
