/**
 * The `dialect` option as a list: one sieve reads several families' calls,
 * as a gateway serving them all needs. Packs that share an opener
 * (`<tool_call>`: Hermes, GLM, Qwen3-Coder) are told apart by what follows,
 * in every chunking; the Markdown guard and the quoted guard hold as for one
 * pack.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, formatToolCalls, ToolsieveError } from '../../src/index.js'
import { calls, codes, expectChunkInvariant } from '../helpers/chunking.js'
import { readCall as read } from '../helpers/dialects.js'

const list = { name: 'list_dir', input: { path: 'src' } }
const write = (dialect: string, call: { name: string; input: Record<string, unknown> } = read) => formatToolCalls([call], { dialect })

describe('a list of dialects', () => {
  it('should support packs that share an opener, told apart by what follows: Hermes and GLM', () => {
    const input = `First ${write('hermes')} then ${write('glm', list)} done.`
    const events = expectChunkInvariant(input, { dialect: ['hermes', 'glm'] })
    expect(calls(events)).toEqual([read, list])
    expect(codes(events)).toEqual([])
  })

  it('should support a pack read by tags beside one read whole that shares its opener: Qwen3-Coder and Hermes', () => {
    const input = `A ${write('qwen3-coder')}\nB ${write('hermes', list)}`
    expect(calls(expectChunkInvariant(input, { dialect: ['qwen3-coder', 'hermes'] }))).toEqual([read, list])
  })

  it('should support DeepSeek DSML beside Kimi K2 and Hermes, the DSML block streaming its arguments', () => {
    const input = `A ${formatToolCalls([read])}\nB ${write('kimi-k2', list)}\nC ${write('hermes')}`
    expect(calls(expectChunkInvariant(input, { dialect: ['deepseek', 'kimi-k2', 'hermes'] }))).toEqual([read, list, read])
    const s = createSieve({ dialect: ['deepseek', 'hermes'], streamArguments: true })
    const events = [...s.push(`Go ${formatToolCalls([read])}`.slice(0, 60))]
    expect(events.some((e) => e.type === 'tool-call-start')).toBe(true)
  })

  it('should support two packs read by tags when one of them can be read whole: DeepSeek and Qwen3-Coder', () => {
    const input = `A ${formatToolCalls([read])}\nB ${write('qwen3-coder', list)}`
    expect(calls(expectChunkInvariant(input, { dialect: ['deepseek', 'qwen3-coder'] }))).toEqual([read, list])
  })

  it('should not support a call of any listed pack in a fence or a code span', () => {
    const input = `\`\`\`\n${write('hermes')}\n\`\`\`\n\nAnd \`${write('glm').replace(/\n/g, ' ')}\` too.`
    expect(expectChunkInvariant(input, { dialect: ['hermes', 'glm'] })).toEqual([{ type: 'text', text: input }])
  })

  it('should not support a block that no listed pack reads: text with a diagnostic', () => {
    const input = '<tool_call>\nneither {json or pairs\n</tool_call>'
    const events = expectChunkInvariant(input, { dialect: ['hermes', 'glm'] })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['malformed-block'])
  })

  it('should not support a call the user quoted, in any listed pack', () => {
    const events = expectChunkInvariant(`Sure: ${write('glm')}`, { dialect: ['hermes', 'glm'], quoted: [`Explain ${write('glm')}`] })
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['quoted-example'])
  })

  it('should not support an empty list, an unknown or unreadable pack, or a wrong item, naming it', () => {
    const field = (dialect: unknown): string | undefined => {
      try {
        createSieve({ dialect: dialect as never })
      } catch (e) {
        expect(e).toBeInstanceOf(ToolsieveError)
        return (e as ToolsieveError).field
      }
      return undefined
    }
    expect(field([])).toBe('dialect')
    expect(field(['hermes', 'qwen4'])).toBe('dialect')
    expect(field(['hermes', 'gpt-oss'])).toBe('dialect[1]')
    expect(field(['hermes', 42])).toBe('dialect[1]')
    // Granite's JSON opener <tool_call> is Hermes' block opener: named, on the dialect field
    expect(field(['granite', 'hermes'])).toBe('dialect')
  })
})

describe('a list of dialects and the quoted guard', () => {
  it('should not support a call the user quoted, whether its pack is read by tags or whole, in a list of both', () => {
    const dsml = formatToolCalls([read])
    const hermes = write('hermes', list)
    const opts = { dialect: ['deepseek', 'hermes'], quoted: [`What do ${dsml} and ${hermes} do?`] }
    const events = expectChunkInvariant(`Both: ${dsml}\n${hermes}`, opts)
    expect(calls(events)).toEqual([])
    expect(codes(events)).toEqual(['quoted-example', 'quoted-example'])
  })
})
