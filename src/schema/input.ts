/** A call's input from its decoded invoke, with or without the tool's schema. */
import type { DecodedInvoke } from '../values/decode.js'
import { coerceValue, objectOf } from './coerce.js'
import { resolve } from './keywords.js'

type Decoded = Extract<DecodedInvoke, { ok: true }>

/** Rules 1–7 with no schema; coerced to `schema` (the tool's input schema) when there is one. */
export function buildInput(d: Decoded, schema: Record<string, unknown> | null): Record<string, unknown> {
  if (d.body !== null) return schema === null ? d.body : (coerceValue(d.body, schema, schema) as Record<string, unknown>)
  return objectOf(d.params ?? [], schema === null ? null : resolve(schema, schema), schema ?? {})
}
