/**
 * `toolsieveMiddleware().wrapStream`, part by part: what the wrapped model's
 * `doStream` gives for a model that writes DSML in its text, on each SDK
 * line (`ai` 6 / LanguageModelV3, and `ai` 7 / LanguageModelV4 on Node 22).
 */
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { awkward, dsml, loadLines, textStream, textsOf, wrappedStream } from './ai-sdk-helpers.js'

const lines = await loadLines()
const call = dsml('read_file', { path: 'src/a.ts' })
const answer = `Let me read it.\n\n${call}\n\nDone.`

/** The parts of the rescued calls, ids replaced by their order. */
function toolParts(parts: ReadonlyArray<Record<string, any>>): unknown[] {
  const ids = new Map<string, string>()
  const id = (v: string) => ids.get(v) ?? (ids.set(v, `#${ids.size}`), ids.get(v)!)
  const out: unknown[] = []
  for (const p of parts) {
    if (p.type === 'tool-input-start') out.push(['start', id(p.id), p.toolName])
    else if (p.type === 'tool-input-delta') {
      const last = out[out.length - 1] as unknown[]
      if (last[0] === 'delta' && last[1] === id(p.id)) last[2] += p.delta
      else out.push(['delta', id(p.id), p.delta])
    } else if (p.type === 'tool-input-end') out.push(['end', id(p.id)])
    else if (p.type === 'tool-call') out.push(['call', id(p.toolCallId), p.toolName, p.input])
  }
  return out
}

for (const loaded of lines) {
  describe(`wrapStream (ai ${loaded.line.major})`, () => {
    it('should support a rescued call as tool-input-start / -delta / -end and tool-call, whatever the chunking', async () => {
      for (const chunks of [[answer], awkward(answer), [...answer]]) {
        const { parts } = await wrappedStream(loaded, textStream(chunks), toolsieveMiddleware())
        expect(toolParts(parts)).toEqual([
          ['start', '#0', 'read_file'],
          ['delta', '#0', '{"path":"src/a.ts"}'],
          ['end', '#0'],
          ['call', '#0', 'read_file', '{"path":"src/a.ts"}'],
        ])
        const call = parts.find((p) => p.type === 'tool-call')!
        expect(call.toolCallId).toMatch(/^call_[0-9a-f]{24}$/)
        expect(parts.filter((p) => p.type.startsWith('tool-input')).every((p) => p.id === call.toolCallId)).toBe(true)
      }
    })

    it('should support cleaned text in parts whose ids stay consistent: the text before a call ends before it starts, the text after is a new part', async () => {
      const { parts } = await wrappedStream(loaded, textStream(awkward(answer)), toolsieveMiddleware())
      const texts = textsOf(parts)
      expect(texts.violations).toEqual([])
      expect(texts.text).toBe('Let me read it.Done.')
      expect(texts.ids).toEqual(['txt-0', 'txt-0-1'])
      const order = parts.filter((p) => ['text-start', 'text-end', 'tool-input-start', 'tool-call'].includes(p.type)).map((p) => p.type)
      expect(order).toEqual(['text-start', 'text-end', 'tool-input-start', 'tool-call', 'text-start', 'text-end'])
    })

    it('should support the finish reason rewritten to tool-calls when calls were rescued, raw kept', async () => {
      const { parts } = await wrappedStream(loaded, textStream([answer]), toolsieveMiddleware())
      expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'stop' } })
      const plain = await wrappedStream(loaded, textStream(['No call here.']), toolsieveMiddleware())
      expect(plain.parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' } })
    })

    it('should support a turn cut short keeping its finish reason (length) with the calls it rescued', async () => {
      const { parts } = await wrappedStream(loaded, textStream([answer], { finish: 'length' }), toolsieveMiddleware())
      expect(parts.filter((p) => p.type === 'tool-call')).toHaveLength(1)
      expect(parts.at(-1)).toMatchObject({ finishReason: { unified: 'length', raw: 'length' } })
    })

    it('should support each upstream text part sieved on its own: held text stays before the next part, a later part does not start in the reasoning', async () => {
      const source = { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' }
      const parts = [
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: 'Plan.</think>Hi <｜DS' },
        { type: 'text-end', id: 'a' },
        source,
        { type: 'text-start', id: 'b' },
        { type: 'text-delta', id: 'b', delta: 'More.</think>' },
        { type: 'text-end', id: 'b' },
        { type: 'finish', usage: {}, finishReason: { unified: 'stop', raw: 'stop' } },
      ]
      const { parts: out } = await wrappedStream(loaded, parts, toolsieveMiddleware({ thinking: true }))
      // adjacent deltas of one part joined: where the sieve cuts its text is not the contract
      const joined: unknown[][] = []
      for (const p of out) {
        const last = joined.at(-1)
        if (p.delta !== undefined && last !== undefined && last[0] === p.type && last[1] === p.id) last[2] += p.delta
        else joined.push([p.type, p.id, p.delta].filter((v) => v !== undefined))
      }
      expect(joined).toEqual([
        ['reasoning-start', 'reasoning-toolsieve-0'],
        ['reasoning-delta', 'reasoning-toolsieve-0', 'Plan.'],
        ['reasoning-end', 'reasoning-toolsieve-0'],
        ['text-start', 'a'],
        ['text-delta', 'a', 'Hi <｜DS'],
        ['text-end', 'a'],
        ['source', 's1'],
        ['text-start', 'b'],
        ['text-delta', 'b', 'More.</think>'],
        ['text-end', 'b'],
        ['finish'],
      ])
    })

    it('should support a block spread over two consecutive upstream text parts: they are one text', async () => {
      const half = call.length >> 1
      const parts = [
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: call.slice(0, half) },
        { type: 'text-end', id: 'a' },
        { type: 'text-start', id: 'b' },
        { type: 'text-delta', id: 'b', delta: call.slice(half) },
        { type: 'text-end', id: 'b' },
      ]
      const { parts: out } = await wrappedStream(loaded, parts, toolsieveMiddleware())
      expect(out.filter((p) => p.type === 'tool-call').map((p) => p.toolName)).toEqual(['read_file'])
      expect(textsOf(out)).toMatchObject({ text: '', violations: [] })
    })

    it('should not support a block spread over two text parts that another part stands between: each run alone is text', async () => {
      const half = call.length >> 1
      const source = { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' }
      const parts = [
        { type: 'text-start', id: 'a' },
        { type: 'text-delta', id: 'a', delta: call.slice(0, half) },
        { type: 'text-end', id: 'a' },
        source,
        { type: 'text-start', id: 'b' },
        { type: 'text-delta', id: 'b', delta: call.slice(half) },
        { type: 'text-end', id: 'b' },
      ]
      const { parts: out } = await wrappedStream(loaded, parts, toolsieveMiddleware())
      expect(out.some((p) => p.type === 'tool-call')).toBe(false)
      expect(textsOf(out)).toMatchObject({ text: call, violations: [] })
    })

    it('should support the other parts passing through in their place', async () => {
      const source = { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' }
      const { parts } = await wrappedStream(loaded, textStream(['Hi.'], { before: [{ type: 'response-metadata', id: 'r1' }], after: [source] }), toolsieveMiddleware())
      expect(parts.map((p) => p.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'text-end', 'source', 'finish'])
    })

    it('should support reasoning: <think> at the start, and a stream that starts inside it (thinking: true)', async () => {
      const think = await wrappedStream(loaded, textStream(awkward(`<think>Need a.ts.</think>\n\n${call}`)), toolsieveMiddleware())
      const inside = await wrappedStream(loaded, textStream(awkward(`Need a.ts.</think>\n\n${call}`)), toolsieveMiddleware({ thinking: true }))
      for (const { parts } of [think, inside]) {
        const reasoning = parts.filter((p) => p.type.startsWith('reasoning'))
        expect(reasoning[0]).toMatchObject({ type: 'reasoning-start' })
        expect(reasoning.at(-1)).toMatchObject({ type: 'reasoning-end', id: reasoning[0]!.id })
        expect(reasoning.filter((p) => p.type === 'reasoning-delta').map((p) => p.delta).join('')).toBe('Need a.ts.')
        expect(parts.findIndex((p) => p.type === 'reasoning-end')).toBeLessThan(parts.findIndex((p) => p.type === 'tool-input-start'))
        expect(toolParts(parts).at(-1)).toEqual(['call', '#0', 'read_file', '{"path":"src/a.ts"}'])
      }
    })

    it("should support a call in the reasoning with reasoningCalls: 'call': the reasoning part ends before it, a new one holds the rest", async () => {
      const { parts } = await wrappedStream(loaded, textStream(awkward(`<think>Check. ${call} Then more.</think>Answer.`)), toolsieveMiddleware({ reasoningCalls: 'call' }))
      const shape = parts.filter((p) => p.type.startsWith('reasoning-') || p.type === 'tool-call' || p.type === 'text-start').map((p) => [p.type, p.id ?? p.toolName])
      expect(shape.filter((s) => s[0] !== 'reasoning-delta')).toEqual([
        ['reasoning-start', 'reasoning-toolsieve-0'],
        ['reasoning-end', 'reasoning-toolsieve-0'],
        ['tool-call', 'read_file'],
        ['reasoning-start', 'reasoning-toolsieve-1'],
        ['reasoning-end', 'reasoning-toolsieve-1'],
        ['text-start', 'txt-0'],
      ])
      expect(parts.filter((p) => p.type === 'reasoning-delta').map((p) => p.delta).join('')).toBe('Check.  Then more.')
    })

    it('should support a call arriving whole (streamArguments: false): start, one delta, end and the call together', async () => {
      const { parts } = await wrappedStream(loaded, textStream(awkward(answer)), toolsieveMiddleware({ streamArguments: false }))
      const at = parts.findIndex((p) => p.type === 'tool-input-start')
      expect(parts.slice(at, at + 4).map((p) => p.type)).toEqual(['tool-input-start', 'tool-input-delta', 'tool-input-end', 'tool-call'])
      expect(parts[at + 1]!.delta).toBe('{"path":"src/a.ts"}')
    })

    it('should support a stream that closes without a finish part: what the sieve holds still comes out', async () => {
      const parts = textStream(['Almost <｜DSML｜tool'])
      const { parts: out } = await wrappedStream(loaded, parts.slice(0, -1), toolsieveMiddleware())
      expect(textsOf(out)).toMatchObject({ text: 'Almost <｜DSML｜tool', violations: [] })
    })

    it('should not support a call inside Markdown code, or a call the user quoted in the last message', async () => {
      const fenced = await wrappedStream(loaded, textStream(awkward('Like this:\n\n```\n' + call + '\n```\n')), toolsieveMiddleware())
      expect(toolParts(fenced.parts)).toEqual([])
      expect(textsOf(fenced.parts).text).toContain(call)
      const prompt = [{ role: 'user', content: [{ type: 'text', text: `What does this do?\n${call}` }] }]
      const quoted = await wrappedStream(loaded, textStream(awkward(`It reads a file:\n\n${call}`)), toolsieveMiddleware(), { prompt })
      expect(toolParts(quoted.parts)).toEqual([])
      expect(textsOf(quoted.parts).text).toContain(call)
      const off = await wrappedStream(loaded, textStream([`Sure.\n\n${call}`]), toolsieveMiddleware({ quoted: false }), { prompt })
      expect(toolParts(off.parts).length).toBe(4)
    })

    it('should not support a call when the tool choice is none: the block is text', async () => {
      const { parts } = await wrappedStream(loaded, textStream(awkward(answer)), toolsieveMiddleware(), { toolChoice: { type: 'none' } })
      expect(toolParts(parts)).toEqual([])
      expect(textsOf(parts).text).toContain(call)
      expect(parts.at(-1)!.finishReason.unified).toBe('stop')
    })

    it('should not support an aborted call: its input part ends, no tool-call follows, its markup is text', async () => {
      // prose between parameters breaks the block after its call started
      const broken = `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\nand then\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
      const { parts } = await wrappedStream(loaded, textStream(awkward(broken)), toolsieveMiddleware())
      expect(parts.some((p) => p.type === 'tool-call')).toBe(false)
      const starts = parts.filter((p) => p.type === 'tool-input-start').map((p) => p.id)
      expect(starts).toHaveLength(1)
      expect(parts.filter((p) => p.type === 'tool-input-end').map((p) => p.id)).toEqual(starts)
      expect(textsOf(parts)).toMatchObject({ text: broken, violations: [] })
      expect(parts.at(-1)!.finishReason.unified).toBe('stop')
    })

    it('should support native tool calls passing through', async () => {
      const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{"path":"b.ts"}' }
      const { parts, error } = await wrappedStream(loaded, textStream(['Reading.'], { after: [native], finish: 'tool-calls' }), toolsieveMiddleware())
      expect(error).toBeUndefined()
      expect(parts.filter((p) => p.type === 'tool-call')).toEqual([native])
    })

    it('should not support native and rescued calls in one turn: the stream errors with native-conflict before the later one goes out', async () => {
      const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{"path":"b.ts"}' }
      const nativeFirst = await wrappedStream(loaded, textStream(awkward(answer), { before: [native] }), toolsieveMiddleware())
      expect(nativeFirst.error).toMatchObject({ name: 'ToolsieveError', code: 'native-conflict' })
      expect(nativeFirst.parts.some((p) => p.type === 'tool-input-start')).toBe(false)
      const rescuedFirst = await wrappedStream(loaded, textStream(awkward(answer), { after: [native] }), toolsieveMiddleware())
      expect(rescuedFirst.error).toMatchObject({ code: 'native-conflict' })
      expect(rescuedFirst.parts.filter((p) => p.type === 'tool-call').map((p) => p.toolCallId)).not.toContain('n1')
    })

    it("should support onConflict: 'prefer-native': rescued calls wait for the finish and go when a native call came", async () => {
      const native = { type: 'tool-call', toolCallId: 'n1', toolName: 'read_file', input: '{"path":"b.ts"}' }
      const both = await wrappedStream(loaded, textStream(awkward(answer), { after: [native], finish: 'tool-calls' }), toolsieveMiddleware({ onConflict: 'prefer-native' }))
      expect(both.error).toBeUndefined()
      expect(both.parts.filter((p) => p.type.startsWith('tool-'))).toEqual([native])
      const alone = await wrappedStream(loaded, textStream(awkward(answer)), toolsieveMiddleware({ onConflict: 'prefer-native' }))
      expect(toolParts(alone.parts).at(-1)).toEqual(['call', '#0', 'read_file', '{"path":"src/a.ts"}'])
      expect(alone.parts.at(-1)!.finishReason.unified).toBe('tool-calls')
    })

    it('should support diagnostics reported to onDiagnostic', async () => {
      const seen: string[] = []
      await wrappedStream(loaded, textStream([dsml('nope', { a: 'b' })]), toolsieveMiddleware({ onDiagnostic: (d) => seen.push(d.code) }))
      expect(seen).toEqual(['unknown-tool'])
    })
  })
}
