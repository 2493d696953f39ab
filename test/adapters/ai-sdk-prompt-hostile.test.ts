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
import { hostile, paths, setAt } from '../helpers/hostile.js'

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

/** A function whose `toString` is data: `String` of it throws, as of `{"toString": 0}`. */
const uncallableToString = Object.assign(function tool() {}, { toString: 0 })

function cycle(): Record<string, unknown> {
  const o: Record<string, unknown> = { a: 1 }
  o.self = o
  return o
}

describe('tool outputs that String or JSON cannot write', () => {
  it('should support a text, error-text or content text that is a function whose toString is not callable: named [function]', () => {
    expect(outputText({ type: 'text', value: uncallableToString })).toBe('[function]')
    expect(outputText({ type: 'error-text', value: uncallableToString })).toBe('Error: [function]')
    expect(outputText({ type: 'content', value: [{ type: 'text', text: uncallableToString }] })).toBe('[function]')
  })

  it('should support a BigInt in json, error-json, text and unknown outputs: a string of its digits', () => {
    expect(outputText({ type: 'json', value: 1n })).toBe('"1"')
    expect(outputText({ type: 'json', value: { n: 12345678901234567890n } })).toBe('{"n":"12345678901234567890"}')
    expect(outputText({ type: 'error-json', value: [-2n] })).toBe('Error: ["-2"]')
    expect(outputText({ type: 'text', value: { n: 3n } })).toBe('{"n":"3"}')
    expect(outputText({ type: 'other', n: 4n })).toBe('{"type":"other","n":"4"}')
    expect(outputText(5n)).toBe('"5"')
  })

  it('should support a cyclic value in json, error-json, text and unknown outputs: the reference back written [cycle]', () => {
    expect(outputText({ type: 'json', value: cycle() })).toBe('{"a":1,"self":"[cycle]"}')
    expect(outputText({ type: 'error-json', value: [cycle()] })).toBe('Error: [{"a":1,"self":"[cycle]"}]')
    expect(outputText({ type: 'text', value: cycle() })).toBe('{"a":1,"self":"[cycle]"}')
    const output: Record<string, unknown> = { type: 'other' }
    output.again = output
    expect(outputText(output)).toBe('{"type":"other","again":"[cycle]"}')
  })

  it('should support one object twice side by side in a json output: written both times, as it is no cycle', () => {
    const shared = { x: 1 }
    expect(outputText({ type: 'json', value: { a: shared, b: [shared, shared] } })).toBe('{"a":{"x":1},"b":[{"x":1},{"x":1}]}')
  })

  it('should support outputs whose reading throws (a getter, a revoked Proxy): named [object]', () => {
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    const getter = {
      get value(): never {
        throw new Error('no')
      },
      type: 'json',
    }
    expect(outputText(revoked.proxy)).toBe('[object]')
    expect(outputText({ type: 'json', value: revoked.proxy })).toBe('[object]')
    expect(outputText({ type: 'text', value: revoked.proxy })).toBe('[object]')
    expect(outputText(getter)).toBe('[object]')
    expect(outputText({ type: 'json', value: { inner: getter } })).toBe('[object]')
  })

  it('should support a content output with elements that are no part (null, a number, a string, a list): left out', () => {
    expect(outputText({ type: 'content', value: [null, 3, { type: 'text', text: 'see' }, undefined, 'x', [], { type: 'media' }] })).toBe('see\n[media]')
    expect(outputText({ type: 'content', value: [null] })).toBe('')
  })

  it('should support a tool turn whose results hold a BigInt, a cycle and a null content part, through transformParams', async () => {
    const out = await transform({
      prompt: [
        { role: 'tool', content: [result('c1', { type: 'json', value: { n: 7n } }), result('c2', { type: 'json', value: cycle() }), result('c3', { type: 'content', value: [null, { type: 'text', text: 'ok' }] })] },
      ],
      tools: [readFile],
    })
    expect(out.prompt.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '<tool_result>{"n":"7"}</tool_result>\n<tool_result>{"a":1,"self":"[cycle]"}</tool_result>\n<tool_result>ok</tool_result>' }],
    })
  })
})

async function transformUnquoted(params: unknown): Promise<Record<string, any>> {
  const m = toolsieveMiddleware({ transformParams: true, quoted: false })
  return (await m.transformParams({ type: 'stream', params: params as never })) as Record<string, any>
}

describe('a prompt of the wrong shape', () => {
  for (const prompt of ['Read a.ts', 5, { role: 'user', content: 'Read a.ts' }, null, undefined]) {
    it(`should support a prompt that is not a list (${String(JSON.stringify(prompt))}): the params as they came, tools included`, async () => {
      const params = { prompt, tools: [readFile], toolChoice: { type: 'auto' } }
      expect(await transformUnquoted(params)).toBe(params)
    })
  }

  it('should support tools that are not a list: the params as they came', async () => {
    const params = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: { read_file: readFile } }
    expect(await transformUnquoted(params)).toBe(params)
  })

  it('should support messages that are no object: each as it came, the others rewritten around them', async () => {
    const out = await transformUnquoted({ prompt: [null, 5, 'hi', { role: 'tool', content: [result('c1', { type: 'text', value: 'A' })] }, undefined], tools: [readFile] })
    expect(out.prompt.slice(1)).toEqual([null, 5, 'hi', { role: 'user', content: [{ type: 'text', text: '<tool_result>A</tool_result>' }] }, undefined])
    expect(out.prompt[0].role).toBe('system')
    expect(out.tools).toBeUndefined()
  })

  it('should support messages whose content is neither text nor a list: as they came', async () => {
    const odd = [
      { role: 'assistant', content: 5 },
      { role: 'tool', content: { type: 'tool-result' } },
      { role: 'user', content: null },
      { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
    ]
    const out = await transformUnquoted({ prompt: odd, tools: [readFile] })
    expect(out.prompt.slice(1)).toEqual(odd)
  })

  it('should support parts that are no object in assistant and tool turns: kept in the assistant turn, left out of the tool results', async () => {
    const out = await transformUnquoted({
      prompt: [
        { role: 'assistant', content: [null, call('c1'), 7, result('c1', { type: 'text', value: 'A' })] },
        { role: 'tool', content: [null, result('c2', { type: 'text', value: 'B' }), undefined] },
      ],
      tools: [readFile],
    })
    const [first, calls, seven, results] = out.prompt[1].content
    expect(first).toBeNull()
    expect(calls.text).toMatch(/^<｜DSML｜tool_calls>[^]*<\/｜DSML｜tool_calls>$/)
    expect(seven).toBe(7)
    expect(results).toEqual({ type: 'text', text: '<tool_result>A</tool_result>' })
    expect(out.prompt[2]).toEqual({ role: 'user', content: [{ type: 'text', text: '<tool_result>B</tool_result>' }] })
  })

  it('should support tools entries that are no object and a null tool choice: kept for the provider', async () => {
    const web = { type: 'provider', id: 'x.web', name: 'web', args: {} }
    const out = await transformUnquoted({ prompt: [], tools: [readFile, null, web], toolChoice: null })
    expect(out.tools).toEqual([null, web])
    expect(out.toolChoice).toEqual({ type: 'auto' })
    expect(out.prompt[0].content).toMatch(/read_file/)
  })

  it('should not support any error but a ToolsieveError from transformParams, whatever field holds null, a number, a BigInt, a cycle or an unprintable function', async () => {
    const given = {
      prompt: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, call('c1'), result('c1', { type: 'json', value: { a: 1 } })] },
        { role: 'tool', content: [result('c1', { type: 'text', value: 'A' }), result('c2', { type: 'content', value: [{ type: 'text', text: 'see' }] })] },
      ],
      tools: [readFile, { type: 'provider', id: 'x.web', name: 'web', args: {} }],
      toolChoice: { type: 'tool', toolName: 'read_file' },
    }
    const values = [null, undefined, 5, 'x', 10n, uncallableToString, cycle()]
    for (const path of paths(given).filter((p) => p.length > 0)) {
      for (const value of values) {
        for (const run of [transform, transformUnquoted]) {
          try {
            await run(setAt(given, path, value))
          } catch (e) {
            if (!(e instanceof ToolsieveError)) throw new Error(`${path.join('.')} = ${String(value)}: ${String(e)}`)
          }
        }
      }
    }
  })
})

describe('params that throw when read', () => {
  const revoked = (): any => {
    const p = Proxy.revocable({}, {})
    p.revoke()
    return p.proxy
  }
  for (const [name, params] of [
    ['a revoked prompt', () => ({ prompt: revoked(), tools: [readFile] })],
    ['a user message whose content is a revoked list', () => ({ prompt: [{ role: 'user', content: revoked() }, { role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: [readFile] })],
    ['a revoked tool choice', () => ({ prompt: [{ role: 'user', content: 'Go.' }], tools: [readFile, { type: 'provider', id: 'x.search', name: 'search', args: {} }], toolChoice: revoked() })],
  ] as const) {
    it(`should support ${name}: the params as they came, never a TypeError`, async () => {
      const given = params()
      expect(await transformUnquoted(given)).toBe(given)
    })
  }
})

describe('a tool schema a structured clone refuses', () => {
  it('should support a function or a symbol in an input schema: the schema as JSON writes it in the tool section', async () => {
    const schema = { type: 'object', properties: { path: { type: 'string', check: () => true, tag: Symbol('s') } }, required: ['path'] }
    const out = await transformUnquoted({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'Go.' }] }], tools: [{ ...readFile, inputSchema: schema }] })
    const section = out.prompt[0].content as string
    expect(section).toContain('read_file')
    expect(section).toContain('path')
    expect(section).not.toContain('check')
  })
})
