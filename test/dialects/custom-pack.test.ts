/**
 * A user's own dialect: a JSON file written against
 * `grammar/dialect.schema.json` (`examples/dialects/acme-tools.json`, the one
 * docs/reference/dialects.md shows), validated, written and read.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createSieve, formatToolCalls, validateDialect, ToolsieveError } from '../../src/index.js'
import { calls, expectChunkInvariant, textOf } from '../helpers/chunking.js'
import { readCall as call } from '../helpers/dialects.js'

const pack = validateDialect(JSON.parse(readFileSync(new URL('../../examples/dialects/acme-tools.json', import.meta.url), 'utf8')))

describe('a dialect of your own', () => {
  it('should support writing and reading its calls, in every chunking', () => {
    const block = formatToolCalls([call], { dialect: pack })
    expect(block).toBe('<acme:calls>\n<call name="read_file">\n<arg name="path">src/a.ts</arg>\n<arg name="limit">40</arg>\n</call>\n</acme:calls>')
    const events = expectChunkInvariant(`Reading it.\n\n${block}`, { dialect: pack })
    expect(calls(events)).toEqual([call])
    expect(textOf(events)).toBe('Reading it.\n\n')
  })

  it('should not support its calls in a fence, or another dialect\'s', () => {
    const block = formatToolCalls([call], { dialect: pack })
    const fenced = `\`\`\`\n${block}\n\`\`\`\n`
    expect(expectChunkInvariant(fenced, { dialect: pack })).toEqual([{ type: 'text', text: fenced }])
    const s = createSieve({ dialect: pack })
    expect(calls([...s.push(formatToolCalls([call])), ...s.end()])).toEqual([])
  })

  it('should not support a broken pack: refused naming the field', () => {
    const broken = JSON.parse(JSON.stringify(pack)) as { blocks: Array<{ call: { name: { from: string } } }> }
    broken.blocks[0]!.call.name.from = 'telepathy'
    const e = (() => { try { validateDialect(broken); return null } catch (x) { return x as ToolsieveError } })()
    expect(e?.code).toBe('invalid-dialect')
    expect(e?.field).toContain('blocks[0].call.name')
  })
})

describe('a dialect of your own, given as an object per sieve', () => {
  it('should support one validation and one grammar per pack object, however many sieves use it', async () => {
    const { resolveDialect } = await import('../../src/dialects/registry.js')
    const { grammarOfDialect } = await import('../../src/dialects/grammar.js')
    const raw = JSON.parse(readFileSync(new URL('../../examples/dialects/acme-tools.json', import.meta.url), 'utf8'))
    for (const given of [pack, raw]) {
      const first = resolveDialect(given)
      expect(resolveDialect(given)).toBe(first)
      expect(resolveDialect(first)).toBe(first)
      // the grammar, and so the lexer compiled from it, is one per pack: a lexer per sieve slowed every later one
      expect(grammarOfDialect(resolveDialect(given))).toBe(grammarOfDialect(first))
    }
  })
})
