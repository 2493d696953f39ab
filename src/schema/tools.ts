/**
 * The `tools` option: names and the tool shapes of `shapes.ts`, normalised
 * once per sieve into a name → schema and validator table.
 */
import { readOption, ToolsieveError } from '../errors.js'
import type { ToolDefinition } from '../types.js'
import { SchemaProblem } from './prepare.js'
import { jsonSchemaOf, toolShape } from './shapes.js'
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

/**
 * Builds the table; a bad entry throws `invalid-option` naming it (`tools[2]`),
 * at creation rather than mid-stream. A tool declared again with the same
 * schema (tool lists merged from several sources) is the same tool; with a
 * different schema it is a conflict no call could be checked against.
 */
export function toolTable(defs: ReadonlyArray<ToolDefinition>): ToolTable {
  // what the list or an entry throws as it is read (a revoked Proxy, a getter that throws) is refused naming it
  if (!readOption('tools', () => Array.isArray(defs))) throw invalid(`tools must be an array, got ${describe(defs)}`, 'tools')
  const table = new Map<string, Tool>()
  readOption('tools', () => defs.forEach((def, i) => readOption(`tools[${i}]`, () => addTool(table, def, `tools[${i}]`))))
  return table
}

function addTool(table: Map<string, Tool>, def: ToolDefinition, field: string): void {
  const shape = toolShape(def, field)
  const name = shape.name
  if (typeof name !== 'string' || name === '') throw invalid(`${field} needs a non-empty name`, field)
  const where = `${field}: the input schema of "${name}"${shape.at === '' ? '' : ` (${shape.at})`}`
  const tool = toolOf(name, jsonSchemaOf(shape.schema, where, field), where, field)
  const seen = table.get(name)
  if (seen === undefined) table.set(name, tool)
  else if (seen.key !== tool.key) throw invalid(`${field}: the tool "${name}" is declared twice, with different input schemas`, field)
}

function toolOf(name: string, schema: unknown, where: string, field: string): Tool {
  if (schema === undefined || schema === true) return { name, key: '', schema: null, validate: null }
  if (schema === false || schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw invalid(`${where} must be a JSON Schema object, got ${describe(schema)}`, field)
  let key: string
  let validate: Validator
  try {
    // compiled first: it remembers the key for this object, so schemaKey writes no text again
    validate = validatorFor(schema)
    key = schemaKey(schema)
  } catch (e) {
    // a schema the validator cannot take says where in it; anything else (a cycle in the object) is the object's
    const why = e instanceof SchemaProblem ? e.message : `not JSON: ${(e as Error).message}`
    throw invalid(`${where} cannot be used, ${why}`, field)
  }
  return { name, key, schema: schema as Record<string, unknown>, validate }
}

function describe(v: unknown): string {
  return v === null ? 'null' : typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`
}
