/**
 * Tool definitions as the prompt shows them: name, a description, and the
 * input schema normalised the way people who prompt models for tools expect
 * (every tool and every top-level parameter described, objects closed with
 * `additionalProperties: false` so the model does not invent parameters).
 * The sieve still checks calls against the schema the caller gave: this copy
 * only shapes what the model is told.
 */
import { ToolsieveError } from '../errors.js'
import { toolTable } from '../schema/tools.js'
import type { JsonSchema, SchemaCarrier } from '../types.js'
import { isPlainObject } from '../values/own.js'

/**
 * A tool as {@link buildToolPrompt} takes it: everything the sieve's `tools`
 * option takes (a name, an OpenAI chat tool, `{ name, inputSchema }` or
 * Anthropic's `input_schema`), with the `description` those shapes carry. An
 * AI SDK function tool (`{ type: 'function', name, description, inputSchema }`)
 * fits too.
 */
export type PromptToolDefinition =
  | string
  | { type?: string; name: string; description?: string; inputSchema?: JsonSchema | SchemaCarrier | null; input_schema?: JsonSchema | null; parameters?: JsonSchema | null }
  | { type: 'function'; function: { name: string; description?: string; parameters?: JsonSchema | null } }

/** One tool, ready to be written into the prompt. */
export interface PromptTool {
  name: string
  description: string
  parameters: Record<string, unknown>
}

function read(def: PromptToolDefinition): { name: string; description: unknown } {
  if (typeof def === 'string') return { name: def, description: undefined }
  if ('function' in def && isPlainObject(def.function)) return { name: def.function.name, description: def.function.description }
  const d = def as { name: string; description?: unknown }
  return { name: d.name, description: d.description }
}

const described = (d: unknown): d is string => typeof d === 'string' && d.trim() !== ''

// the keywords under which a subschema's instance is itself a value of the parent; `allOf` is left out on purpose
// (closing one branch of an intersection with additionalProperties: false would reject the other branches' properties)
const mapKeys = ['properties', 'patternProperties', '$defs', 'definitions'] as const
const listKeys = ['anyOf', 'oneOf', 'prefixItems'] as const
const oneKeys = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const

/**
 * A deep copy. A schema that holds what a structured clone refuses (a
 * function or a symbol, as a schema library's object may) is copied as the
 * JSON the prompt writes of it, which leaves those out (the sieve's own
 * reading of the schema, `toolTable`, refused what JSON cannot write).
 */
function copyOf(root: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(root)
  } catch {
    return JSON.parse(JSON.stringify(root)) as Record<string, unknown>
  }
}

/**
 * A copy of `schema` with every object that lists its `properties` (and says
 * nothing of extra ones) closed. Iterative: schemas may nest deeply.
 */
function closeObjects(root: Record<string, unknown>): Record<string, unknown> {
  const copy = copyOf(root)
  const stack: unknown[] = [copy]
  while (stack.length > 0) {
    const s = stack.pop()
    if (!isPlainObject(s)) continue
    const open = !('additionalProperties' in s) && !('patternProperties' in s) && !('unevaluatedProperties' in s)
    if (isPlainObject(s.properties) && open && !('allOf' in s)) s.additionalProperties = false
    for (const k of mapKeys) if (isPlainObject(s[k])) stack.push(...Object.values(s[k] as object))
    for (const k of listKeys) if (Array.isArray(s[k])) stack.push(...(s[k] as unknown[]))
    for (const k of oneKeys) stack.push(s[k])
  }
  return copy
}

/** Fills in what the model would otherwise have to guess (a tool's description and each top-level parameter's) and drops the top-level `$schema`. */
function normalize(name: string, description: unknown, schema: JsonSchema | undefined): PromptTool {
  const parameters: Record<string, unknown> = isPlainObject(schema) ? closeObjects(schema) : { type: 'object' }
  // the dialect marker (zod and the AI SDK write one into every schema) tells the model nothing and costs tokens
  delete parameters.$schema
  if (isPlainObject(parameters.properties)) {
    const props = parameters.properties as Record<string, unknown>
    for (const [key, p] of Object.entries(props)) {
      if (isPlainObject(p) && !described(p.description) && !('$ref' in p)) props[key] = { ...p, description: `The ${key} argument.` }
    }
  }
  return { name, description: described(description) ? description.trim() : `The ${name} tool.`, parameters }
}

/**
 * Reads and normalises `tools`. Checked as the sieve's `tools` option is (a
 * bad entry or a schema that does not compile throws `invalid-option` naming
 * `tools[i]`); a tool declared twice with the same schema is listed once.
 */
export function promptTools(tools: ReadonlyArray<PromptToolDefinition>): PromptTool[] {
  if (!Array.isArray(tools)) throw new ToolsieveError('invalid-option', 'tools must be an array', 'tools')
  // the sieve's own reading, for the same errors and the same duplicate rule
  const table = toolTable(tools as Parameters<typeof toolTable>[0])
  const seen = new Set<string>()
  const out: PromptTool[] = []
  tools.forEach((def, i) => {
    const { name, description } = read(def)
    if (description !== undefined && typeof description !== 'string') throw new ToolsieveError('invalid-option', `tools[${i}]: a description must be a string`, `tools[${i}]`)
    if (seen.has(name)) return
    seen.add(name)
    // the table's schema: the JSON Schema of every shape it reads (Responses `parameters`, the AI SDK's wrappers)
    out.push(normalize(name, description, table.get(name)?.schema ?? undefined))
  })
  return out
}
