/**
 * Validators are cached by schema content, not by object: a gateway that
 * builds its tools afresh per request (new objects, same schemas) compiles
 * each schema once, and the cache is bounded (LRU), so memory stays flat.
 */
import { describe, expect, it } from 'vitest'
import { ToolsieveError, createSieve } from '../../src/index.js'
import { toolTable } from '../../src/schema/tools.js'
import { cacheSize, cachedSchemas, schemaKey, validatorFor } from '../../src/schema/validate.js'

const schema = { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['path'] }
const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T

describe('schema cache', () => {
  it('should support a deep copy of a schema sharing its validator', () => {
    expect(validatorFor(copy(schema))).toBe(validatorFor(schema))
  })

  it('should support the same schema with its keys in another order sharing its validator', () => {
    const reordered = { required: ['path'], properties: { limit: { minimum: 1, type: 'integer' }, path: { type: 'string' } }, type: 'object' }
    expect(schemaKey(reordered)).toBe(schemaKey(schema))
    expect(validatorFor(reordered)).toBe(validatorFor(schema))
  })

  it('should not support different schemas sharing a validator', () => {
    expect(validatorFor({ ...schema, required: [] })).not.toBe(validatorFor(schema))
    // `$schema` picks the dialect, so it is part of the key
    expect(validatorFor({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema })).not.toBe(validatorFor(schema))
  })

  it('should support fresh tool arrays per request compiling nothing after the first', () => {
    const tools = () => [{ type: 'function' as const, function: { name: 'read_file', parameters: copy(schema) } }]
    const first = toolTable(tools()).get('read_file')!.validate
    const before = cachedSchemas()
    for (let i = 0; i < 50; i++) expect(toolTable(tools()).get('read_file')!.validate).toBe(first)
    expect(cachedSchemas()).toBe(before)
  })

  it('should support a bounded cache: past its size the least recently used schema goes', () => {
    const keep = { type: 'object', title: 'kept' }
    const kept = validatorFor(keep)
    for (let i = 0; i < cacheSize + 20; i++) {
      validatorFor({ type: 'object', title: `schema ${i}` })
      // used again and again, so never the least recently used
      if (i % 100 === 0) validatorFor(copy(keep))
    }
    expect(cachedSchemas()).toBe(cacheSize)
    expect(validatorFor(copy(keep))).toBe(kept)
    expect(validatorFor({ type: 'object', title: 'schema 0' })).not.toBeUndefined()
  })

  it('should not support a schema object with a cycle (invalid-option, not a hang)', () => {
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic.properties = { self: cyclic }
    let error: unknown
    try {
      createSieve({ tools: [{ name: 'f', inputSchema: cyclic }] })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ToolsieveError)
    expect(error).toMatchObject({ code: 'invalid-option', field: 'tools[0]' })
  })
})
