/**
 * `toolsieve parse`, end to end in a child process: the generated
 * transcript (its manifest says which calls each turn holds) in JSONL, as
 * a recorded SSE stream and as plain text, in every output format.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseJsonl } from '../../bench/transcripts.js'
import type { ManifestCall } from '../../bench/generate.js'
import { cli, generated, jsonLines, root, tempDir, type Generated } from './run.js'

const block = (name: string, path: string): string =>
  `<｜DSML｜tool_calls>\n<｜DSML｜invoke name="${name}">\n<｜DSML｜parameter name="path" string="true">${path}</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
const answer = `Let me read it.\n\n${block('read_file', 'a.ts')}\n\nDone.`

interface Event {
  turn?: number
  type: string
  name?: string
  input?: unknown
  code?: string
  text?: string
}

/** A recording of `test/fixtures/openai-vllm/`: a vLLM stream and what a DeepSeek V4 parser makes of it. */
interface VllmRecord {
  input_stream: { data: unknown }[]
  expected_output: { normal_content?: string; reasoning_content?: string; tool_calls?: { function: { name: string; arguments: string } }[] }
}

let gen: Generated
let manifest: ManifestCall[][]
const callsByTurn = (events: Event[]): ManifestCall[][] => {
  const by: ManifestCall[][] = gen.turns.map(() => [])
  for (const e of events) if (e.type === 'tool-call') by[e.turn!]!.push({ name: e.name!, input: e.input as Record<string, string> })
  return by
}

beforeAll(() => {
  gen = generated()
  manifest = parseJsonl<{ calls: ManifestCall[] }>(readFileSync(gen.manifest, 'utf8')).map((m) => m.calls)
})

describe('toolsieve parse', () => {
  it('should support a JSONL transcript: events with their turn, every call as the manifest says', async () => {
    const run = await cli(['parse', gen.transcript])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const events = jsonLines<Event>(run.stdout)
    expect(events.every((e) => typeof e.turn === 'number')).toBe(true)
    expect(events.filter((e) => e.type === 'diagnostic')).toEqual([])
    expect(callsByTurn(events)).toEqual(manifest)
    expect(gen.calls).toBeGreaterThan(50)
  })

  it('should support simulated streaming in token-sized chunks, with the same calls', async () => {
    const run = await cli(['parse', gen.transcript, '--chunk', 'token'])
    expect(run.code).toBe(0)
    expect(callsByTurn(jsonLines<Event>(run.stdout))).toEqual(manifest)
  })

  it('should support --format openai: one assistant message per turn with its tool_calls', async () => {
    const run = await cli(['parse', gen.transcript, '--format', 'openai', '--chunk', '7'])
    expect(run.code).toBe(0)
    const messages = jsonLines<{ role: string; content: string | null; tool_calls?: { type: string; function: { name: string; arguments: string } }[] }>(run.stdout)
    expect(messages).toHaveLength(gen.turns.length)
    const calls = messages.map((m) => (m.tool_calls ?? []).map((c) => ({ name: c.function.name, input: JSON.parse(c.function.arguments) })))
    expect(calls).toEqual(manifest)
    expect(messages.every((m) => m.role === 'assistant' && (m.tool_calls ?? []).every((c) => c.type === 'function'))).toBe(true)
  })

  it('should support --format text: the cleaned text, a JSON string per turn of a JSONL input', async () => {
    const lines = [{ content: answer }, { choices: [{ message: { content: 'No calls here.' } }] }].map((l) => JSON.stringify(l)).join('\n')
    const run = await cli(['parse', '-', '--format', 'text'], lines)
    expect(run.code).toBe(0)
    expect(jsonLines(run.stdout)).toEqual(['Let me read it.\n\nDone.', 'No calls here.'])
  })

  it('should support plain text on stdin, one turn, events without a turn field', async () => {
    const run = await cli(['parse', '--chunk', '1'], answer)
    expect(run.code).toBe(0)
    const events = jsonLines<Event>(run.stdout)
    expect(events.some((e) => 'turn' in e)).toBe(false)
    expect(events.filter((e) => e.type === 'tool-call').map((e) => [e.name, e.input])).toEqual([['read_file', { path: 'a.ts' }]])
    expect(events.filter((e) => e.type === 'text').map((e) => e.text).join('')).toBe('Let me read it.\n\n\n\nDone.')
  })

  it('should support a recorded SSE stream split at awkward places, and two responses in one file', async () => {
    const deltas = (text: string, id: string): string[] => {
      const out: string[] = []
      for (let i = 0; i < text.length; i += 5) {
        out.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text.slice(i, i + 5) }, finish_reason: null }] })}`)
      }
      return [...out, `data: ${JSON.stringify({ id, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}`, 'data: [DONE]']
    }
    const file = join(tempDir(), 'stream.sse')
    writeFileSync(file, [...deltas(answer, 'a'), ...deltas(block('list_dir', 'src'), 'b')].join('\n\n') + '\n\n')
    const run = await cli(['parse', file, '--format', 'openai'])
    expect(run.code).toBe(0)
    const messages = jsonLines<{ tool_calls: { function: { name: string } }[] }>(run.stdout)
    expect(messages.map((m) => m.tool_calls.map((c) => c.function.name))).toEqual([['read_file'], ['list_dir']])
  })

  it('should support the recorded vLLM streams as SSE: every call and the reasoning as their expected output', async () => {
    const dir = join(root, 'test/fixtures/openai-vllm')
    const records = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as VllmRecord)
    // All the recordings in one file, each ended by [DONE]: one response per turn.
    const file = join(tempDir(), 'vllm.sse')
    writeFileSync(file, records.map((r) => r.input_stream.map((e) => `data: ${JSON.stringify(e.data)}\n\n`).join('') + 'data: [DONE]\n\n').join(''))
    const run = await cli(['parse', file, '--format', 'openai'])
    expect(run.code).toBe(0)
    const messages = jsonLines<{ content: string | null; reasoning_content?: string; tool_calls?: { function: { name: string; arguments: string } }[] }>(run.stdout)
    expect(messages).toHaveLength(records.length)
    messages.forEach((m, i) => {
      const expected = records[i]!.expected_output
      const calls = (m.tool_calls ?? []).map((c) => [c.function.name, JSON.parse(c.function.arguments)])
      expect(calls).toEqual((expected.tool_calls ?? []).map((c) => [c.function.name, JSON.parse(c.function.arguments)]))
      expect(m.reasoning_content ?? '').toBe(expected.reasoning_content ?? '')
      expect((m.content ?? '').trim()).toBe((expected.normal_content ?? '').trim())
    })
  })

  it('should support --field for a JSONL whose text is elsewhere, and --thinking', async () => {
    const lines = JSON.stringify({ log: { out: ['The user wants a.ts.</think>', answer] } })
    const run = await cli(['parse', '-', '--field', 'log.out', '--thinking', '--format', 'openai'], lines)
    expect(run.code).toBe(0)
    const [message] = jsonLines<{ reasoning_content: string; tool_calls: unknown[] }>(run.stdout)
    expect(message!.reasoning_content).toBe('The user wants a.ts.')
    expect(message!.tool_calls).toHaveLength(1)
  })

  it('should support --tools and --strict: an unknown tool is an error, exit 1', async () => {
    const tools = join(tempDir(), 'tools.json')
    writeFileSync(tools, JSON.stringify({ tools: [{ type: 'function', function: { name: 'list_dir', parameters: { type: 'object' } } }] }))
    const lenient = await cli(['parse', '--tools', tools], answer)
    expect(lenient.code).toBe(0)
    expect(jsonLines<Event>(lenient.stdout).filter((e) => e.type === 'diagnostic').map((e) => e.code)).toEqual(['unknown-tool'])
    const strict = await cli(['parse', '--tools', tools, '--strict', '--format', 'text'], answer)
    expect(strict.code).toBe(1)
    expect(strict.stderr).toContain('unknown-tool 1')
  })

  it('should support --grammar: a config file with a wrapper name of its own', async () => {
    const config = JSON.parse(readFileSync(join(root, 'grammar/default.json'), 'utf8')) as { $schema?: string; roles: { wrapper: unknown[] } }
    config.roles.wrapper.push('actions')
    delete config.$schema
    const file = join(tempDir(), 'grammar.json')
    writeFileSync(file, JSON.stringify(config))
    const text = answer.replaceAll('tool_calls>', 'actions>')
    const names = async (args: string[]): Promise<string[]> =>
      jsonLines<Event>((await cli(['parse', ...args], text)).stdout).filter((e) => e.type === 'tool-call').map((e) => e.name!)
    expect(await names(['--grammar', file])).toEqual(['read_file'])
    expect(await names([])).toEqual([])
  })

  it('should support --dialect and --model: another family\'s calls', async () => {
    const qwen = 'Reading.\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a.ts\n</parameter>\n</function>\n</tool_call>'
    const names = async (args: string[]): Promise<string[]> =>
      jsonLines<Event>((await cli(['parse', ...args], qwen)).stdout).filter((e) => e.type === 'tool-call').map((e) => e.name!)
    expect(await names(['--dialect', 'qwen3-coder'])).toEqual(['read_file'])
    expect(await names(['--model', 'Qwen/Qwen3-Coder-480B-A35B-Instruct'])).toEqual(['read_file'])
    expect(await names([])).toEqual([])
    for (const args of [['parse', '--dialect', 'qwen4'], ['parse', '--dialect', 'glm', '--model', 'glm-4.6'], ['parse', '--dialect', 'glm', '--grammar', join(root, 'grammar/default.json')]]) {
      const run = await cli(args, qwen)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })

  it('should not support a JSONL line that is not JSON or has no text: reported on stderr, skipped, exit 1 under --strict', async () => {
    const lines = [JSON.stringify({ text: answer }), '{"text": oops', JSON.stringify({ role: 'user' })].join('\n')
    const lenient = await cli(['parse', '-', '--input', 'jsonl', '--format', 'openai'], lines)
    expect(lenient.code).toBe(0)
    expect(jsonLines(lenient.stdout)).toHaveLength(1)
    expect(lenient.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^toolsieve parse: stdin:2: not JSON/),
      expect.stringMatching(/^toolsieve parse: stdin:3: no text in text, content, output/),
    ])
    expect((await cli(['parse', '-', '--input', 'jsonl', '--strict'], lines)).code).toBe(1)
  })

  it('should not support unknown flags, bad values or a missing file: one line on stderr, exit 2', async () => {
    const badGrammar = join(tempDir(), 'bad-grammar.json')
    writeFileSync(badGrammar, JSON.stringify({ roles: { wrapper: [] } }))
    const cases = [['parse', '--bogus'], ['parse', '--chunk', 'fast'], ['parse', '--format', 'yaml'], ['parse', join(tempDir(), 'missing.jsonl')], ['parse', '--grammar', badGrammar], ['nonsense']]
    for (const args of cases) {
      const run = await cli(args, answer)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
      expect(run.stderr, args.join(' ')).toMatch(/^toolsieve/)
      expect(run.stdout).toBe('')
    }
  })

  it('should support --help on the command and on toolsieve itself', async () => {
    const help = await cli(['parse', '--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('--chunk input|token|N|whole')
    const top = await cli(['--help'])
    expect(top.code).toBe(0)
    for (const command of ['parse', 'bench', 'prompt', 'format', 'proxy']) expect(top.stdout).toContain(`  ${command} `)
  })
})
