/**
 * `toolsieveMiddleware({ transformParams: true })` on a prompt holding JSON
 * objects that cannot become a string (`{"toString": 0}` and kin: their
 * `toString` and `valueOf` are data), as a conversation loaded from storage
 * or sent by a client can: the call is rewritten, or refused with a
 * `ToolsieveError`, never a `TypeError`.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError } from '../../src/index.js'
import { toolsieveMiddleware } from '../../src/ai-sdk/index.js'
import { outputText } from '../../src/ai-sdk/prompt.js'

/** Objects that JSON can spell and that no code may turn into a string or a number. */
const hostile = [{ toString: 0 }, { toString: 0, valueOf: 0 }, [{ toString: 0 }], { valueOf: {}, toString: {} }]

type Path = Array<string | number>

/** Every place in `value` a field can be replaced, the value itself first. */
function paths(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at)
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out))
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out)
  return out
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), replacement)
  return copy
}

const readFile = { type: 'function', name: 'read_file', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }
const call = (id: string) => ({ type: 'tool-call', toolCallId: id, toolName: 'read_file', input: { path: 'a.ts' } })
const result = (id: string, output: unknown) => ({ type: 'tool-result', toolCallId: id, toolName: 'read_file', output })

async function transform(params: unknown): Promise<Record<string, any>> {
  const m = toolsieveMiddleware({ transformParams: true })
  return (await m.transformParams({ type: 'stream', params: params as never })) as Record<string, any>
}

describe('tool outputs that cannot become a string', () => {
  for (const value of hostile) {
    const json = JSON.stringify(value)
    it(`should support a text output whose value is ${json}: its JSON text`, () => {
      expect(outputText({ type: 'text', value })).toBe(json)
      expect(outputText({ type: 'error-text', value })).toBe(`Error: ${json}`)
    })

    it(`should support a content output whose part text or type is ${json}: its JSON text`, () => {
      expect(outputText({ type: 'content', value: [{ type: 'text', text: value }, { type: value }, { type: 'image-data', mediaType: 'image/png' }] })).toBe(`${json}\n[${json}]\n[image-data image/png]`)
    })
  }

  it('should support text outputs of well-formed values as before', () => {
    expect(outputText({ type: 'text', value: 'ok' })).toBe('ok')
    expect(outputText({ type: 'text', value: 7 })).toBe('7')
    expect(outputText({ type: 'error-text', value: undefined })).toBe('Error: undefined')
    expect(outputText({ type: 'content', value: [{ type: 'text', text: 'see' }, { type: 'media' }] })).toBe('see\n[media]')
  })

  it('should support a text output whose value is an object JSON cannot write: no error', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(typeof outputText({ type: 'text', value: cyclic })).toBe('string')
  })
})

describe('an assistant text part that cannot become a string', () => {
  for (const value of hostile) {
    it(`should support a text part of ${JSON.stringify(value)} before a tool call: the part as it came, the call in a text part of its own`, async () => {
      const part = { type: 'text', text: value }
      const out = await transform({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }, { role: 'assistant', content: [part, call('c1'), result('c1', { type: 'text', value: 'A' })] }], tools: [readFile] })
      const content = out.prompt.at(-1).content as { type: string; text: unknown }[]
      expect(content[0]).toBe(part)
      expect(content).toHaveLength(2)
      expect(content[1]!.text).toMatch(/^<｜DSML｜tool_calls>[^]*<\/｜DSML｜tool_calls>\n\n<tool_result>A<\/tool_result>$/)
    })
  }

  it('should support a text part before a tool call joined to the call, as before', async () => {
    const out = await transform({ prompt: [{ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, call('c1')] }], tools: [readFile] })
    expect(out.prompt.at(-1).content).toEqual([{ type: 'text', text: expect.stringMatching(/^Reading\.\n\n<｜DSML｜tool_calls>/) }])
  })
})

describe('objects that cannot become a string, in every field of the prompt', () => {
  const params = {
    prompt: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, call('c1'), { ...call('c2'), input: '{"path":"b.ts"}' }, result('c1', { type: 'text', value: 'A' })] },
      {
        role: 'tool',
        content: [
          result('c1', { type: 'text', value: 'A' }),
          result('c2', { type: 'error-text', value: 'no' }),
          result('c3', { type: 'json', value: { a: 1 } }),
          result('c4', { type: 'execution-denied', reason: 'not now' }),
          result('c5', { type: 'content', value: [{ type: 'text', text: 'see' }, { type: 'image-data', mediaType: 'image/png', data: 'x' }] }),
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Go on.' }] },
    ],
    tools: [readFile, { type: 'provider', id: 'x.web', name: 'web', args: {} }],
    toolChoice: { type: 'auto' },
  }

  for (const toolChoice of [{ type: 'auto' }, { type: 'required' }, { type: 'tool', toolName: 'read_file' }, { type: 'tool', toolName: 'web' }]) {
    it(`should not support any error but a ToolsieveError from transformParams (tool choice ${toolChoice.type} ${toolChoice.toolName ?? ''}), whatever field holds one`, async () => {
      const given = { ...params, toolChoice }
      // the call options themselves, `prompt` and `tools` are lists the AI SDK makes: their own shape is not the prompt's content
      for (const path of paths(given).filter((p) => p.length > 1)) {
        for (const value of hostile) {
          try {
            await transform(setAt(given, path, value))
          } catch (e) {
            if (!(e instanceof ToolsieveError)) throw new Error(`${path.join('.')} = ${JSON.stringify(value)}: ${String(e)}`)
          }
        }
      }
    })
  }
})
