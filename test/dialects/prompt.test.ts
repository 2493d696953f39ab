/**
 * `buildToolPrompt(tools, { dialect })`: the model is taught its own family's
 * markup, with an example `formatToolCalls` writes from the same pack and
 * value rules read from the pack's data.
 */
import { describe, expect, it } from 'vitest'
import { buildToolPrompt, dialects, formatToolCalls, ToolsieveError } from '../../src/index.js'
import { dialectExample } from '../../src/prompt/dialect-prompt.js'

const tools = [{ type: 'function' as const, function: { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }]

function err(f: () => unknown): [string, string | undefined] {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    return [(e as ToolsieveError).code, (e as ToolsieveError).field]
  }
  return ['no error', undefined]
}

describe('buildToolPrompt with a dialect', () => {
  for (const pack of Object.values(dialects)) {
    for (const block of pack.blocks) {
      it(`should support ${pack.name} (${block.name}): the example written by the pack, the tools listed, the example-guard rule`, () => {
        const prompt = buildToolPrompt(tools, { dialect: pack.name, variant: block.name })
        if (pack.grammar === 'default') expect(prompt).toBe(buildToolPrompt(tools, { dialect: 'dsml' }))
        else expect(prompt).toContain('\n\n' + formatToolCalls([dialectExample], { dialect: pack.name, variant: block.name }) + '\n\n')
        expect(prompt).toContain('{"name":"read_file","description":"Read a file."')
        expect(prompt).toMatch(/Never write (one|it), or any part of (one|it), as an example, in Markdown code/)
        expect(prompt).toContain('It is not one of your tools.')
      })
    }
  }

  it('should support the value rules of a raw-XML family: raw strings, Python literals, JSON containers', () => {
    const prompt = buildToolPrompt(tools, { dialect: 'qwen3-coder' })
    expect(prompt).toContain('- A string value: the text exactly as it is, with no quotes, no escaping and no entities, on its own line between the line breaks shown.')
    expect(prompt).toContain('- A number: as digits. A boolean or null: True, False or None.')
    expect(prompt).toContain('- An array or object: as JSON.')
    expect(prompt).toContain('- Write one block per call; to call several tools, write one block after another.')
  })

  it('should support the value rules of Seed-OSS: Python containers', () => {
    expect(buildToolPrompt(tools, { dialect: 'seed-oss' })).toContain('- An array or object: in Python syntax (lists, dicts with quoted keys, True, False, None).')
  })

  it('should support the value rules of a JSON family and of the Python call list', () => {
    expect(buildToolPrompt(tools, { dialect: 'hermes' })).toContain('- The arguments are one JSON object: strings in double quotes with JSON escapes')
    expect(buildToolPrompt(tools, { dialect: 'pythonic' })).toContain('- The arguments are Python keyword arguments with Python literals')
  })

  it('should support the start of the message for anchored blocks and the end otherwise', () => {
    expect(buildToolPrompt(tools, { dialect: 'llama3-json' })).toContain('write the call at the very start of your reply, with nothing before it, in exactly this form:')
    expect(buildToolPrompt(tools, { dialect: 'glm' })).toContain('write the call at the end of your reply, in exactly this form:')
  })

  it('should support a type attribute, a quote token and a repeated opener in words', () => {
    expect(buildToolPrompt(tools, { dialect: 'kimi-k3' })).toContain('- Mark each value with its type in type="…": "string" for a string, "number" for a number, "boolean" for a boolean, "null" for null, "object" for an object, "array" for an array.')
    expect(buildToolPrompt(tools, { dialect: 'gemma4' })).toContain('- A string value: between two <|"|> tokens, exactly as it is, with no other quotes and no escaping.')
    expect(buildToolPrompt(tools, { dialect: 'mistral' })).toContain('- Start each call with [TOOL_CALLS]; to call several tools, write one call after another.')
    expect(buildToolPrompt(tools, { dialect: 'mistral', variant: 'array' })).toContain('- Put every call of this turn in the one list, separated as shown.')
  })

  it('should support a pack given as data, and no tools: no markup taught', () => {
    expect(buildToolPrompt(tools, { dialect: structuredClone(dialects.glm!) })).toBe(buildToolPrompt(tools, { dialect: 'glm' }))
    expect(buildToolPrompt([], { dialect: 'glm' })).toBe('# Tools\n\nYou have no tools in this conversation: do not write any tool-call markup.')
  })

  it('should not support an unknown dialect or variant, or a variant of dsml', () => {
    expect(err(() => buildToolPrompt(tools, { dialect: 'klingon' }))).toEqual(['invalid-option', 'dialect'])
    expect(err(() => buildToolPrompt([], { dialect: 'klingon' }))).toEqual(['invalid-option', 'dialect'])
    expect(err(() => buildToolPrompt(tools, { dialect: 'glm', variant: 'glm-9' }))).toEqual(['invalid-option', 'variant'])
    expect(err(() => buildToolPrompt(tools, { dialect: 'dsml', variant: 'glm-4.7' }))).toEqual(['invalid-option', 'variant'])
    expect(err(() => buildToolPrompt(tools, { dialect: { name: 'x' } as never }))).toEqual(['invalid-dialect', 'description'])
  })
})
