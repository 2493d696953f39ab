/**
 * The tool shapes users have, read into a name and a JSON Schema: OpenAI
 * chat tools (`{ type: 'function', function: { name, parameters } }`),
 * OpenAI Responses tools (`{ type: 'function', name, parameters }`),
 * Anthropic tools (`{ name, input_schema }`), MCP and AI SDK tools
 * (`{ name, inputSchema }`). An AI SDK `inputSchema` may be its
 * `jsonSchema()` wrapper or a Zod / Standard Schema: the JSON Schema is
 * taken where one is reachable, and otherwise the error says how to pass one.
 */
import { ToolsieveError } from '../errors.js'
import type { ToolDefinition } from '../types.js'
import { isPlainObject } from '../values/own.js'

function invalid(message: string, field: string): ToolsieveError {
  return new ToolsieveError('invalid-option', message, field)
}

/** What a schema field of a tool holds, before it is known to be a JSON Schema. */
export interface ToolShape {
  name: unknown
  /** The value of the schema field; undefined when the tool has none. */
  schema: unknown
  /** Where it was (`function.parameters`, `inputSchema`, …), for messages. */
  at: string
}

/** The name and schema field of one `tools` entry; throws `invalid-option` naming `field` for an entry that is no tool. */
export function toolShape(def: ToolDefinition, field: string): ToolShape {
  if (typeof def === 'string') return { name: def, schema: undefined, at: '' }
  if (def === null || typeof def !== 'object' || Array.isArray(def)) throw invalid(`${field} must be a tool name or a tool object`, field)
  const d = def as Record<string, unknown>
  if (isPlainObject(d.function)) return { name: d.function.name, schema: d.function.parameters ?? undefined, at: 'function.parameters' }
  const given = (['inputSchema', 'input_schema', 'parameters'] as const).filter((k) => d[k] !== undefined && d[k] !== null)
  if (given.length > 1) throw invalid(`${field} has both ${given[0]} and ${given[1]}: give the input schema once`, field)
  // Responses tools write `parameters: null` for "no schema"
  const at = given[0]
  return { name: d.name, schema: at === undefined ? undefined : d[at], at: at ?? '' }
}

const aiSdkSchema = Symbol.for('vercel.ai.schema')

/**
 * The JSON Schema in a tool's schema field: the value itself when it is a
 * plain object or boolean; the AI SDK's `jsonSchema()` wrapper's
 * `.jsonSchema`; a lazy schema (a function) called; a Standard Schema's
 * `~standard.jsonSchema.input()` (Zod 4 has one). `where` names the tool
 * for messages (`tools[0]: the input schema of "read_file"`).
 */
export function jsonSchemaOf(value: unknown, where: string, field: string): unknown {
  let v = value
  // an AI SDK lazy schema is a function returning the schema; one call, not a loop
  if (typeof v === 'function') v = attempt(() => (v as () => unknown)(), where, field, 'its schema function threw')
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return v
  const o = v as Record<string | symbol, unknown>
  if (o[aiSdkSchema] === true || ('jsonSchema' in o && 'validate' in o && !('~standard' in o))) {
    const s = attempt(() => o.jsonSchema, where, field, 'reading its .jsonSchema threw')
    if (typeof (s as { then?: unknown } | null)?.then === 'function') {
      throw invalid(`${where} is a schema whose JSON Schema comes asynchronously; await it and pass the JSON Schema itself`, field)
    }
    return s
  }
  const standard = o['~standard']
  if (isPlainObject(standard) || typeof o._def === 'object') {
    const converter = isPlainObject(standard) && isPlainObject(standard.jsonSchema) ? standard.jsonSchema : null
    const convert = converter?.input
    if (typeof convert === 'function') {
      return attempt(
        () => {
          try {
            return convert.call(converter, { target: 'draft-2020-12' })
          } catch {
            // a library that writes only draft-07
            return convert.call(converter, { target: 'draft-07' })
          }
        },
        where,
        field,
        'its ~standard.jsonSchema.input() threw',
      )
    }
    const vendor = isPlainObject(standard) && typeof standard.vendor === 'string' ? standard.vendor : 'zod'
    if (vendor === 'zod') {
      throw invalid(
        `${where} is a Zod schema with no JSON Schema to read (Zod 3); pass its JSON Schema: inputSchema: jsonSchema(zodToJsonSchema(schema)) with zod-to-json-schema, or z.toJSONSchema(schema) with Zod 4`,
        field,
      )
    }
    throw invalid(`${where} is a ${vendor} schema with no JSON Schema to read (~standard.jsonSchema); pass its JSON Schema`, field)
  }
  return v
}

function attempt(f: () => unknown, where: string, field: string, what: string): unknown {
  try {
    return f()
  } catch (e) {
    throw invalid(`${where}: ${what}: ${thrownText(e)}`, field)
  }
}

/**
 * What a thrown value says: its `message`, else the value. Never throws, so
 * the error it goes into is what comes out. Code may throw what is not an
 * Error, and an object with no prototype or with `toString` and `valueOf` as
 * data (`{"toString": 0}`) cannot become a string, nor can a function given
 * such a `toString`: an object or function is named by its tag
 * (`[object Object]`), as `String` names one. A `message` getter that throws
 * leaves the value itself; a value whose tag cannot be read either (a
 * revoked Proxy) is `[object]`.
 */
function thrownText(e: unknown): string {
  let said: unknown = e
  try {
    said = (e as { message?: unknown } | null | undefined)?.message ?? e
  } catch {
    // a getter or a Proxy trap threw on reading `message`
  }
  if (said === null || (typeof said !== 'object' && typeof said !== 'function')) return String(said)
  try {
    return Object.prototype.toString.call(said)
  } catch {
    // a revoked Proxy throws on any look at it, its tag included
    return '[object]'
  }
}
