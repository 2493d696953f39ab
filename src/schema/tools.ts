/**
 * The `tools` option: names, OpenAI tool objects, or `{ name, inputSchema }`,
 * normalised once per sieve into a name → schema and validator table.
 */
import { ToolsieveError } from '../errors.js'
import type { JsonSchema, ToolDefinition } from '../types.js'
import { schemaKey, validatorFor, type Validator } from './validate.js'

export interface Tool {
  name: string
  /** The schema's canonical text (`''` for none): a second declaration of the name must match it. */
  key: string
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

/**
 * Builds the table; a bad entry throws `invalid-option` naming it (`tools[2]`),
 * at creation rather than mid-stream. A tool declared again with the same
 * schema (tool lists merged from several sources) is the same tool; with a
 * different schema it is a conflict no call could be checked against.
 */
export function toolTable(defs: ReadonlyArray<ToolDefinition>): ToolTable {
  if (!Array.isArray(defs)) throw invalid(`tools must be an array, got ${describe(defs)}`, 'tools')
  const table = new Map<string, Tool>()
  defs.forEach((def, i) => {
    const field = `tools[${i}]`
    const [name, schema] = nameAndSchema(def, field)
    if (typeof name !== 'string' || name === '') throw invalid(`${field} needs a non-empty name`, field)
    const tool = toolOf(name, schema, field)
    const seen = table.get(name)
    if (seen === undefined) table.set(name, tool)
    else if (seen.key !== tool.key) throw invalid(`${field}: the tool "${name}" is declared twice, with different input schemas`, field)
  })
  return table
}

function toolOf(name: string, schema: JsonSchema | undefined, field: string): Tool {
  if (schema === undefined || schema === true) return { name, key: '', schema: null, validate: null }
  if (schema === false || schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw invalid(`${field}: the input schema must be a JSON Schema object`, field)
  let key: string
  let validate: Validator
  try {
    // compiled first: it remembers the key for this object, so schemaKey writes no text again
    validate = validatorFor(schema)
    key = schemaKey(schema)
  } catch (e) {
    throw invalid(`${field}: the input schema of "${name}" does not compile: ${(e as Error).message}`, field)
  }
  return { name, key, schema: schema as Record<string, unknown>, validate }
}

function describe(v: unknown): string {
  return v === null ? 'null' : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`
}
