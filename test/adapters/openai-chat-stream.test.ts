/**
 * `sieveChatStream` (toolsieve/openai): a chat completion stream with the
 * calls its text held rescued as `delta.tool_calls`.
 */
import { describe, expect, it } from 'vitest'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream'
import { sieveChatStream } from '../../src/openai/index.js'
import { accumulate, answer, block, chunk, collect, counter, cut, invoke, iterate, param, rejection } from './openai-helpers.js'
import { held, multi } from './choices-helpers.js'
import { until } from './stream-helpers.js'

const ls = block(invoke('ls', param('dir', 'src')))
const text = `Let me look.\n\n${ls}\n\nDone.`
const sizes = [1, 2, 5, 17, 10_000]

const run = (chunks: ChatCompletionChunk[], options: Parameters<typeof sieveChatStream>[1] = {}) => collect(sieveChatStream(iterate(chunks), { generateId: counter(), ...options }))

describe('sieveChatStream: rescued calls', () => {
  it('should support a DSML call as delta.tool_calls, the content cleaned and trimmed, finish tool_calls, in every chunking', async () => {
    for (const size of sizes) {
      expect(accumulate(await run(answer(cut(text, size))))).toEqual({
        content: 'Let me look.\n\nDone.',
        reasoning: '',
        calls: [{ id: 'call_1', name: 'ls', arguments: '{"dir":"src"}' }],
        finish: 'tool_calls',
      })
    }
  })

  it('should support a call going out as one chunk with index, id, type and name, then one with its arguments', async () => {
    const out = await run(answer([ls]))
    const deltas = out.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []))
    expect(deltas).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'ls', arguments: '' } },
      { index: 0, function: { arguments: '{"dir":"src"}' } },
    ])
  })

  it('should support several calls, indexed in order', async () => {
    const two = block(invoke('ls', param('dir', 'a')), invoke('cat', param('path', 'b')))
    const got = accumulate(await run(answer(cut(two, 3))))
    expect(got.calls.map((c) => [c.name, c.arguments])).toEqual([['ls', '{"dir":"a"}'], ['cat', '{"path":"b"}']])
  })

  it('should support the fullwidth spelling and plain XML', async () => {
    const fullwidth = '＜ＤＳＭＬ＜tool_calls＞＜ＤＳＭＬ＜invoke name="ls"＞＜ＤＳＭＬ＜parameter name="dir" string="true"＞a＜／ＤＳＭＬ＜／parameter＞＜／ＤＳＭＬ＜／invoke＞＜／ＤＳＭＬ＜／tool_calls＞'
    const xml = '<tool_calls><invoke name="ls"><parameter name="dir">a</parameter></invoke></tool_calls>'
    for (const input of [fullwidth, xml]) expect(accumulate(await run(answer(cut(input, 2)))).calls).toEqual([{ id: 'call_1', name: 'ls', arguments: '{"dir":"a"}' }])
  })

  it('should not support running an example in a code fence or code span: it stays content, finish stop', async () => {
    const examples = `Write it like this:\n\n\`\`\`\n${ls}\n\`\`\`\n\nor inline \`${ls}\`.`
    for (const size of [1, 7, 10_000]) expect(accumulate(await run(answer(cut(examples, size))))).toEqual({ content: examples, reasoning: '', calls: [], finish: 'stop' })
  })

  it('should not support calling the user\'s own example (quoted: the request messages)', async () => {
    const messages = [{ role: 'user', content: `What does this do?\n${ls}` }]
    expect(accumulate(await run(answer([`It lists: ${ls}`]), { quoted: messages }))).toMatchObject({ content: `It lists: ${ls}`, calls: [], finish: 'stop' })
  })

  it('should not support rewriting a length or content_filter finish (the turn did not end as meant)', async () => {
    expect(accumulate(await run(answer([ls], 'length'))).finish).toBe('length')
    expect(accumulate(await run(answer([ls], 'content_filter'))).finish).toBe('content_filter')
  })

  it('should support trimBlankLines: false keeping every character of the content', async () => {
    expect(accumulate(await run(answer([text]), { trimBlankLines: false })).content).toBe('Let me look.\n\n\n\nDone.')
  })

  it('should support tools: a schema coerces, an unknown tool is reported to onDiagnostic', async () => {
    const seen: string[] = []
    const tools = [{ type: 'function' as const, function: { name: 'add', parameters: { type: 'object', properties: { a: { type: 'number' } } } } }]
    const got = accumulate(await run(answer([block(invoke('add', param('a', '2')), invoke('rm', param('p', 'x')))]), { tools, onDiagnostic: (d) => seen.push(d.code) }))
    expect(got.calls.map((c) => c.arguments)).toEqual(['{"a":2}', '{"p":"x"}'])
    expect(seen).toEqual(['unknown-tool'])
  })
})

describe('sieveChatStream: reasoning', () => {
  it('should support <think> as delta.reasoning_content', async () => {
    for (const size of [1, 4, 10_000]) {
      expect(accumulate(await run(answer(cut(`<think>The user wants src.</think>${ls}`, size))))).toMatchObject({ content: '', reasoning: 'The user wants src.', calls: [{ name: 'ls' }], finish: 'tool_calls' })
    }
  })

  it('should support thinking: the completion starts inside the reasoning', async () => {
    expect(accumulate(await run(answer(['Plan it.', '</think>', 'Answer.']), { thinking: true }))).toMatchObject({ content: 'Answer.', reasoning: 'Plan it.' })
  })

  it('should support upstream delta.reasoning_content passing through', async () => {
    const chunks = [chunk({ role: 'assistant', reasoning_content: 'thinking…' }), chunk({ content: 'Hi' }), chunk({}, 'stop')]
    expect(accumulate(await run(chunks))).toEqual({ content: 'Hi', reasoning: 'thinking…', calls: [], finish: 'stop' })
  })
})

describe('sieveChatStream: the stream', () => {
  it('should support one sieve per choice.index, choices interleaved in one chunk', async () => {
    const a = cut(`A ${ls}`, 3)
    const b = cut('B plain', 2)
    const chunks: ChatCompletionChunk[] = []
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const choices: ChatCompletionChunk.Choice[] = []
      if (i < a.length) choices.push({ index: 0, delta: { content: a[i] }, finish_reason: null })
      if (i < b.length) choices.push({ index: 1, delta: { content: b[i] }, finish_reason: null })
      chunks.push({ ...chunk({}), choices })
    }
    chunks.push({ ...chunk({}), choices: [{ index: 0, delta: {}, finish_reason: 'stop' }, { index: 1, delta: {}, finish_reason: 'stop' }] })
    const out = await run(chunks)
    expect(accumulate(out, 0)).toMatchObject({ content: 'A', calls: [{ name: 'ls' }], finish: 'tool_calls' })
    expect(accumulate(out, 1)).toEqual({ content: 'B plain', reasoning: '', calls: [], finish: 'stop' })
  })

  it('should support usage-only chunks passing through unchanged', async () => {
    const usage = { ...chunk({}), choices: [], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }
    const out = await run([...answer([ls]), usage])
    expect(out[out.length - 1]).toBe(usage)
  })

  it('should support a stream that ends without a finish_reason: flushed, tool_calls when calls went out', async () => {
    const noFinish = [chunk({ role: 'assistant', content: 'Hi ' }), chunk({ content: ls.slice(0, -3) }), chunk({ content: ls.slice(-3) })]
    expect(accumulate(await run(noFinish))).toMatchObject({ content: 'Hi', calls: [{ name: 'ls' }], finish: 'tool_calls' })
    // held text (a possible tag) comes out at the end, and no finish is invented
    expect(accumulate(await run([chunk({ content: 'a <｜DS' })]))).toEqual({ content: 'a <｜DS', reasoning: '', calls: [], finish: null })
  })

  it('should support chunks missing optional fields (no role, no finish_reason, no delta fields)', async () => {
    const bare = [{ choices: [{ index: 0, delta: { content: 'Hi ' } }] }, { choices: [{ index: 0, delta: {} }] }, { choices: [{ index: 0, delta: { content: ls } }] }] as unknown as ChatCompletionChunk[]
    expect(accumulate(await run(bare))).toMatchObject({ content: 'Hi', calls: [{ name: 'ls' }], finish: 'tool_calls' })
  })

  it('should support keeping the role, logprobs and other fields of a chunk whose content is held', async () => {
    const out = await run([{ ...chunk({ role: 'assistant', content: '<｜DSML｜' }), choices: [{ index: 0, delta: { role: 'assistant', content: '<｜DSML｜' }, finish_reason: null, logprobs: { content: [], refusal: null } }] }, chunk({ content: 'x' }, 'stop')])
    expect(out[0]!.choices[0]).toEqual({ index: 0, delta: { role: 'assistant' }, finish_reason: null, logprobs: { content: [], refusal: null } })
    expect(accumulate(out)).toMatchObject({ content: '<｜DSML｜x', finish: 'stop' })
  })

  it('should not support bad options: refused when called, before any chunk is read', () => {
    let read = false
    const chunks = { [Symbol.asyncIterator]: () => ((read = true), iterate([])) }
    expect(() => sieveChatStream(chunks, { onConflict: 'both' as never })).toThrow(expect.objectContaining({ code: 'invalid-option', field: 'onConflict' }))
    expect(() => sieveChatStream(chunks, { tools: [{ type: 'function', function: { name: 'x', parameters: { type: 'nope' } } }] })).toThrow(expect.objectContaining({ field: 'tools[0]' }))
    expect(read).toBe(false)
  })
})

describe('sieveChatStream: native calls', () => {
  const native = (index: number, first: boolean, args: string): ChatCompletionChunk =>
    chunk({ tool_calls: [first ? { index, id: `native_${index}`, type: 'function', function: { name: 'nat', arguments: args } } : { index, function: { arguments: args } }] })

  it('should support native delta.tool_calls passing through, with indexes apart from rescued ones', async () => {
    const chunks = [chunk({ role: 'assistant', content: 'ok' }), native(3, true, '{"a"'), native(3, false, ':1}'), chunk({}, 'tool_calls')]
    expect(accumulate(await run(chunks))).toEqual({ content: 'ok', reasoning: '', calls: [{ id: 'native_3', name: 'nat', arguments: '{"a":1}' }], finish: 'tool_calls' })
  })

  it('should support a legacy delta.function_call as a tool call', async () => {
    const chunks = [chunk({ role: 'assistant', function_call: { name: 'old', arguments: '' } }), chunk({ function_call: { arguments: '{"x":1}' } }), chunk({}, 'function_call')]
    expect(accumulate(await run(chunks))).toEqual({ content: '', reasoning: '', calls: [{ id: 'call_1', name: 'old', arguments: '{"x":1}' }], finish: 'tool_calls' })
  })

  it('should not support a rescued call after a native one: native-conflict before the rescued call goes out', async () => {
    const out: ChatCompletionChunk[] = []
    const iterator = sieveChatStream(iterate([native(0, true, '{}'), chunk({ content: ls }), chunk({}, 'stop')]))
    const error = await rejection((async () => { for await (const c of iterator) out.push(c) })())
    expect(error.code).toBe('native-conflict')
    expect(accumulate(out).calls.map((c) => c.name)).toEqual(['nat'])
  })

  it('should not support a native call after a rescued one went out: native-conflict', async () => {
    const error = await rejection(run([chunk({ content: ls }), native(0, true, '{}'), chunk({}, 'tool_calls')]))
    expect(error.code).toBe('native-conflict')
  })

  it('should support onConflict prefer-native: rescued calls held to the finish, dropped when natives came', async () => {
    const withNative = await run([chunk({ content: `x ${ls}` }), native(0, true, '{}'), chunk({}, 'tool_calls')], { onConflict: 'prefer-native' })
    expect(accumulate(withNative)).toMatchObject({ content: 'x', calls: [{ name: 'nat' }], finish: 'tool_calls' })
    const without = await run(answer([`x ${ls}`]), { onConflict: 'prefer-native' })
    expect(accumulate(without)).toMatchObject({ content: 'x', calls: [{ name: 'ls' }], finish: 'tool_calls' })
    // held: no call chunk before the finish chunk
    const firstCall = without.findIndex((c) => c.choices.some((ch) => ch.delta.tool_calls !== undefined))
    const content = without.findIndex((c) => c.choices.some((ch) => ch.delta.content === 'x'))
    expect(firstCall).toBeGreaterThan(content)
  })
})

describe('sieveChatStream: a chunk for a choice after its finish', () => {
  const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 }
  const upTo = (chunks: readonly unknown[], options: Parameters<typeof sieveChatStream>[1] = {}) => until(sieveChatStream(iterate(chunks as ChatCompletionChunk[]), { generateId: counter(), ...options }))
  /** The chunks as the SDK's ChatCompletionStream reads them: its final completion. */
  const sdkRead = async (out: readonly ChatCompletionChunk[]) => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const o of out) c.enqueue(new TextEncoder().encode(`${JSON.stringify(o)}\n`))
        c.close()
      },
    })
    return ChatCompletionStream.fromReadableStream(body).finalChatCompletion()
  }
  const lsCall = [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"dir":"src"}' } }]
  const invalidChunk = (field: string) => expect.objectContaining({ code: 'invalid-chunk', field })

  it('should support content after the finish going out raw, as that choice\'s content after its finish: markup in it is no call', async () => {
    const { out, error } = await upTo([...answer([`Let me look. ${ls}`]), chunk({ content: `More. ${ls}` })])
    expect(error).toBeUndefined()
    const final = await sdkRead(out)
    expect(final.choices[0]!.message).toMatchObject({ content: `Let me look.More. ${ls}`, tool_calls: lsCall })
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(accumulate(out).calls).toHaveLength(1)
  })

  it('should support every character sent after the finish: a late word, a trailing newline with usage, late reasoning', async () => {
    const late = [chunk({ content: ' world' }), { ...chunk({ content: '\n' }), usage }, chunk({ reasoning_content: 'hm' })]
    const { out, error } = await upTo([...answer(['Hello']), ...late])
    expect(error).toBeUndefined()
    expect(accumulate(out)).toEqual({ content: 'Hello world\n', reasoning: 'hm', calls: [], finish: 'stop' })
    expect(out.map((c) => c.usage).filter(Boolean)).toEqual([usage])
  })

  const native = chunk({ tool_calls: [{ index: 0, id: 'native_0', type: 'function', function: { name: 'nat', arguments: '{}' } }] })
  it.each<[string, ChatCompletionChunk]>([
    ['a native tool call', native],
    ['a legacy function_call', chunk({ function_call: { name: 'old', arguments: '{}' } })],
  ])('should not support %s after the finish of a turn with a rescued call: native-conflict, as before the finish, the rescued call intact', async (_, late) => {
    const { out, error } = await upTo([...answer([ls]), late])
    expect(error).toEqual(expect.objectContaining({ code: 'native-conflict' }))
    const final = await sdkRead(out)
    expect(final.choices[0]!.message.tool_calls).toEqual(lsCall)
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
  })

  it('should support a native call after the finish at an index apart from the rescued calls (prefer-native: they went out at the finish), and at 0 in a turn with none', async () => {
    const { out, error } = await upTo([...answer([ls]), native], { onConflict: 'prefer-native' })
    expect(error).toBeUndefined()
    expect(accumulate(out).calls.map((c) => c.id)).toEqual(['call_1', 'native_0'])
    expect(out.at(-1)!.choices[0]!.delta.tool_calls).toEqual([expect.objectContaining({ index: 1, id: 'native_0' })])
    const plain = await upTo([...answer(['Hi']), native])
    expect(plain.error).toBeUndefined()
    expect(accumulate(plain.out)).toMatchObject({ content: 'Hi', calls: [expect.objectContaining({ id: 'native_0' })], finish: 'stop' })
  })

  it('should not support a chunk of the wrong shape after the finish: invalid-chunk naming the field, as before it', async () => {
    const after = async (late: unknown) => (await upTo([...answer(['Hi']), late])).error
    expect(await after(chunk({ content: 42 } as never))).toEqual(invalidChunk('choices[0].delta.content'))
    expect(await after(chunk({ tool_calls: [{ function: { name: 'ls' } }] } as never))).toEqual(invalidChunk('choices[0].delta.tool_calls[0].index'))
    expect(await after(chunk('x' as never))).toEqual(invalidChunk('choices[0].delta'))
    expect(await after(chunk({}, 7 as never))).toEqual(invalidChunk('choices[0].finish_reason'))
  })

  it('should support a late chunk for one choice not ending another: choice 0 goes on to its finish', async () => {
    const { out, error } = await upTo([multi([0, 'A'], [1, 'b', 'stop']), multi([1, ` late ${ls}`]), multi([0, held(' more')]), multi([0, '', 'stop'])])
    expect(error).toBeUndefined()
    expect(accumulate(out, 0)).toEqual({ content: `A${held(' more')}`, reasoning: '', calls: [], finish: 'stop' })
    expect(accumulate(out, 1)).toEqual({ content: `b late ${ls}`, reasoning: '', calls: [], finish: 'stop' })
  })

  it('should support what says nothing after the finish going out as it came: usage with no choices, an empty delta with usage, logprobs, a refusal', async () => {
    const late = [
      { ...chunk({}), choices: [], usage },
      { ...chunk({ content: '' }), usage },
      { ...chunk({ role: 'assistant', content: null, tool_calls: [] } as never), choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [] }, finish_reason: null, logprobs: { content: [], refusal: null } }] },
      chunk({ refusal: 'no' }),
    ] as ChatCompletionChunk[]
    const { out, error } = await upTo([...answer([ls]), ...late])
    expect(error).toBeUndefined()
    expect(out.slice(-late.length)).toEqual(late)
    const final = await sdkRead(out)
    expect(final.choices[0]!.message).toMatchObject({ tool_calls: lsCall, refusal: 'no' })
    expect(final.usage).toEqual(usage)
  })

  it('should support a finish repeated after the finish going out as the turn gave it: tool_calls once calls went out', async () => {
    const { out, error } = await upTo([...answer([ls]), { ...chunk({}, 'stop'), usage }])
    expect(error).toBeUndefined()
    const final = await sdkRead(out)
    expect(final.choices[0]!.finish_reason).toBe('tool_calls')
    expect(final.usage).toEqual(usage)
    expect(accumulate(await run([...answer(['Hi']), { ...chunk({}, 'stop'), usage }]))).toMatchObject({ content: 'Hi', finish: 'stop' })
  })
})
