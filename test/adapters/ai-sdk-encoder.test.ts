/**
 * DeepSeek's own output through the AI SDK: records of DeepSeek's official
 * encoders (`test/fixtures/deepseek-encoder/`, see PROVENANCE.md there)
 * streamed through a wrapped mock model in seeded random chunks. Each must
 * give the record's calls as `tool-call` parts (name, and input parsing to
 * the record's arguments), each streamed through its own tool-input parts
 * whose deltas join to the input, the record's reasoning as reasoning parts
 * (thinking-mode records start inside it), and the record's content as text,
 * without the blank lines before the block (nor, in thinking mode, those
 * after `</think>`). Records whose content leaves a
 * fence open (their block is fenced code: text) or whose value holds the
 * exact closer (the format cannot carry it) are the core's specs' business.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { chunkInput, readRecords, type EncoderRecord } from '../helpers/fixtures-external.js'
import { loadLines, textStream, textsOf, wrappedStream, type LoadedLine } from './ai-sdk-helpers.js'

const lines = await loadLines()
const dir = fileURLToPath(new URL('../fixtures/deepseek-encoder/', import.meta.url))
/** The first usable records of each file: a sample that keeps both SDK passes quick (the core's encoder specs read every record). */
const PER_FILE = 60

const usable = (r: EncoderRecord) => !r.features.includes('content/unclosed-fence') && !(r.edge_classes ?? []).includes('str/dsml-exact')

async function problems(loaded: LoadedLine, record: EncoderRecord): Promise<string[]> {
  const middleware = toolsieveMiddleware({ thinking: record.thinking_mode === 'thinking' })
  const { parts, error } = await wrappedStream(loaded, textStream(chunkInput(record.text, 'random', record.id)), middleware, { tools: undefined })
  const out: string[] = []
  if (error !== undefined) out.push(`error ${String(error)}`)
  const calls = parts.filter((p) => p.type === 'tool-call')
  if (calls.map((c) => c.toolName).join() !== record.calls.map((c) => c.name).join()) out.push(`calls ${calls.map((c) => c.toolName).join()}`)
  calls.forEach((c, i) => {
    const deltas = parts.filter((p) => p.type === 'tool-input-delta' && p.id === c.toolCallId).map((p) => p.delta).join('')
    if (deltas !== c.input) out.push(`call ${i}: deltas ${deltas} are not the input ${c.input}`)
    try {
      expect(JSON.parse(c.input)).toEqual(record.calls[i]?.arguments)
    } catch {
      out.push(`call ${i}: input ${c.input}`)
    }
  })
  const reasoning = parts.filter((p) => p.type === 'reasoning-delta').map((p) => p.delta).join('')
  if (reasoning !== (record.reasoning ?? '')) out.push(`reasoning ${JSON.stringify(reasoning)}`)
  const texts = textsOf(parts)
  out.push(...texts.violations)
  // the blank lines before the block go, and those after </think> (a thinking-mode answer's start)
  const content = record.content.replace(/[ \t\r\n]+$/, '')
  const expected = record.thinking_mode === 'thinking' ? content.replace(/^[ \t\r\n]*[\r\n]/, '') : content
  if (texts.text !== expected) out.push(`text ${JSON.stringify(texts.text)}`)
  if (parts.at(-1)?.finishReason?.unified !== 'tool-calls') out.push(`finish ${JSON.stringify(parts.at(-1))}`)
  return out
}

for (const loaded of lines) {
  describe(`DeepSeek encoder records through the middleware (ai ${loaded.line.major})`, () => {
    for (const file of ['v4.jsonl', 'v32.jsonl']) {
      it(`should support the calls, reasoning and content of ${file}'s records, in random chunks`, async () => {
        const records = readRecords(dir + file).filter(usable).slice(0, PER_FILE)
        const failing: string[] = []
        for (const record of records) {
          const p = await problems(loaded, record)
          if (p.length > 0) failing.push(`${record.id}: ${p.join('; ')}`)
        }
        expect(records.length).toBe(PER_FILE)
        expect(failing.slice(0, 10)).toEqual([])
      })
    }
  })
}
