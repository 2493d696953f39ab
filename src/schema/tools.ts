/**
 * The `tools` option: names, OpenAI tool objects, or `{ name, inputSchema }`,
 * normalised once per sieve into a name → schema and validator table.
 */
import { ToolsieveError } from '../errors.js'
import type { JsonSchema, ToolDefinition } from '../types.js'
import { validatorFor, type Validator } from './validate.js'

export interface Tool {
  name: string
  /** The input schema as an object; null when the tool declared none (any input is accepted). */
  schema: Record<string, unknown> | null
  validate: Validator | null
}

export type ToolTable = ReadonlyMap<string, Tool>

function invalid(message: string, field: string): ToolsieveError {
  return new ToolsieveError('invalid-option', message, field)
}

function nameAndSchema(def: ToolDefinition, field: string): [string, JsonSchema | undefined] {
  if (typeof def === 'string') return [def, undefined]
  if (def === null || typeof def !== 'object') throw invalid(`${field} must be a tool name or a tool object`, field)
  if ('function' in def && def.function !== null && typeof def.function === 'object') return [def.function.name, def.function.parameters]
  const d = def as { name?: unknown; inputSchema?: JsonSchema; input_schema?: JsonSchema }
  return [d.name as string, d.inputSchema ?? d.input_schema]
}

/** Builds the table; a bad entry throws `invalid-option` naming it (`tools[2]`), at creation rather than mid-stream. */
export function toolTable(defs: ReadonlyArray<ToolDefinition>): ToolTable {
  if (!Array.isArray(defs)) throw invalid('tools must be an array', 'tools')
  const table = new Map<string, Tool>()
  defs.forEach((def, i) => {
    const field = `tools[${i}]`
    const [name, schema] = nameAndSchema(def, field)
    if (typeof name !== 'string' || name === '') throw invalid(`${field} needs a non-empty name`, field)
    if (table.has(name)) throw invalid(`${field}: the tool "${name}" is declared twice`, field)
    if (schema === undefined || schema === true) {
      table.set(name, { name, schema: null, validate: null })
      return
    }
    if (schema === false || schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw invalid(`${field}: the input schema must be a JSON Schema object`, field)
    let validate: Validator
    try {
      validate = validatorFor(schema)
    } catch (e) {
      throw invalid(`${field}: the input schema of "${name}" does not compile: ${(e as Error).message}`, field)
    }
    table.set(name, { name, schema: schema as Record<string, unknown>, validate })
  })
  return table
}
