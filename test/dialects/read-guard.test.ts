/**
 * Each pack the sieve reads, in each of its layouts it reads, keeps the two
 * promises: a call in a fenced or indented code block, a code span or the
 * reasoning is text; one cut off by the end of the stream is text with a
 * diagnostic; a real call after a fenced copy is a call. Blocks are written
 * by the pack's own writer.
 */
import { describe, expect, it } from 'vitest'
import { createSieve, dialects, formatToolCalls, ToolsieveError } from '../../src/index.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { readLayouts, readPacks, readCall as call } from '../helpers/dialects.js'
import { expectStreamedOnce } from '../helpers/streamed.js'

/** Every layout of every pack the sieve reads but the default's (its own suites cover it) and those anchored at the message start (read-anchored.test.ts): [pack, layout]. */
const read: Array<[string, string]> = readPacks
  .filter((pack) => pack.name !== 'deepseek')
  .flatMap((pack) => readLayouts(pack).filter((i) => pack.blocks[i]!.anchored !== true).map((i): [string, string] => [pack.name, pack.blocks[i]!.name]))

describe.each(read)('reading the %s dialect, layout %s', (dialect, variant) => {
  const block = formatToolCalls([call], { dialect, variant })
  const one = (input: string) => expectChunkInvariant(input, { dialect })
  const reasoning = (dialects[dialect]!.regions ?? []).find((r) => r.kind === 'reasoning' && r.open.kind === 'literal' && r.close.kind === 'literal')

  it('should support a call written by the pack, with the text around it', () => {
    const events = one(`Let me read it.\n\n${block}`)
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('Let me read it.\n\n')
    expect(codes(events)).toEqual([])
  })

  it('should support text after the call, and a second call after it', () => {
    // the second call the model's second (Kimi K2 counts its calls, Mistral's ids differ): a pack's id is given once in a stream
    const second = formatToolCalls([{ ...call, id: 'functions.read_file:1' }], { dialect, variant })
    const events = one(`Reading.\n${block}\nThen: ${second} done.`)
    expect(calls(events)).toEqual([call, call])
    expect(textOf(events)).toBe('Reading.\n\nThen:  done.')
    expect(codes(events)).toEqual([])
  })

  it('should support streaming its arguments: one start, deltas that make the arguments, in any chunking', () => {
    expectStreamedOnce(`Now:\n${block}`, { dialect }, call)
  })

  it('should not support a call in a fenced code block', () => {
    const input = `Like this:\n\n\`\`\`xml\n${block}\n\`\`\`\n`
    expect(one(input)).toEqual([{ type: 'text', text: input }])
  })

  it('should not support a call in an indented code block', () => {
    const input = `Like this:\n\n${block.split('\n').map((l) => `    ${l}`).join('\n')}\n`
    expect(one(input)).toEqual([{ type: 'text', text: input }])
  })

  it('should not support a call in a code span', () => {
    const input = `Write \`${block.replace(/\n/g, ' ')}\` to call it.`
    expect(one(input)).toEqual([{ type: 'text', text: input }])
  })

  it('should not support a call in the reasoning', () => {
    // a pack with no reasoning tags of its own has the grammar's default, `<think>`
    const open = reasoning === undefined ? '<think>' : (reasoning.open as { text: string[] }).text[0]!
    const close = reasoning === undefined ? '</think>' : (reasoning.close as { text: string[] }).text[0]!
    const events = one(`${open}Maybe ${block} later.${close}Done.`)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe('Done.')
  })

  it('should not support a call cut off by the end of the stream', () => {
    // cut inside the call, in its first argument's value: no call is complete
    const input = `Reading:\n${block.slice(0, block.indexOf('src/a') + 3)}`
    const events = one(input)
    expect(calls(events)).toEqual([])
    expect(textOf(events)).toBe(input)
    expect(codes(events)).toContain('unterminated-block')
  })

  it('should support a real call after a fenced copy of it', () => {
    const events = one(`For example:\n\n\`\`\`\n${block}\n\`\`\`\n\nNow for real:\n\n${block}`)
    expect(calls(events)).toEqual([call])
  })

  it('should not support a DSML block, which is another dialect', () => {
    const dsml = formatToolCalls([call])
    expect(calls(one(`x\n\n${dsml}`))).toEqual([])
  })
})

describe('the dialect option', () => {
  it('should support a pack given as an object', () => {
    const s = createSieve({ dialect: dialects['qwen3-coder'] })
    expect(calls([...s.push(formatToolCalls([call], { dialect: 'qwen3-coder' })), ...s.end()])).toEqual([call])
  })

  it('should not support a pack the sieve cannot read yet, naming what it lacks', () => {
    for (const [dialect, lacks] of [['gigachat', 'opens at a regex'], ['gpt-oss', 'envelope']] as const) {
      const e = (() => { try { createSieve({ dialect }); return null } catch (x) { return x } })()
      expect(e).toBeInstanceOf(ToolsieveError)
      expect((e as ToolsieveError).code).toBe('invalid-option')
      expect((e as ToolsieveError).field).toBe('dialect')
      expect((e as ToolsieveError).message).toContain(lacks)
      expect((e as ToolsieveError).message).toContain('formatToolCalls')
    }
  })

  it('should not support an unknown name, a dialect with a grammar, or a wrong type', () => {
    for (const options of [{ dialect: 'qwen4' }, { dialect: 'qwen3-coder', grammar: undefined as never, captureLimit: 1 }, { dialect: 42 as never }, { dialect: [] as never }]) {
      expect(() => createSieve(options)).toThrow(ToolsieveError)
    }
    expect(() => createSieve({ dialect: 'seed-oss', grammar: createSieve as never })).toThrow(/dialect or a grammar/)
  })

  it('should support the deepseek pack as the default grammar', () => {
    const s = createSieve({ dialect: 'deepseek' })
    expect(calls([...s.push(formatToolCalls([call])), ...s.end()])).toEqual([call])
  })
})
