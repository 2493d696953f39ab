/**
 * Reading upstream data (chunks, events, parts, whole responses) without
 * trusting its shape. A server, a gateway or a mock can send `null` where an
 * object belongs, a string where a list does; the adapters read only the
 * fields they act on, and a field that is there but cannot be what the wire
 * says is a {@link ToolsieveError} `invalid-chunk` naming it, never a
 * `TypeError` from deep inside. Fields the adapter does not read pass
 * through as they came.
 */
import { ToolsieveError } from '../errors.js'

/** A JSON object: not `null`, not an array. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const absent = (v: unknown): v is null | undefined => v === undefined || v === null

function describe(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`
}

/**
 * `v` as text for a key: what `String(v)` gives for a
 * primitive, one spelling for any object. An object from upstream JSON may
 * carry `toString` and `valueOf` as data (`{"toString": 0}`), and turning it
 * into a string would throw a `TypeError`.
 */
export function keyText(v: unknown): string {
  return (typeof v === 'object' && v !== null) || typeof v === 'function' ? '[object]' : String(v)
}

/** The error for upstream data of the wrong shape: `field` is the path of the bad field within the chunk (or response). */
export function malformed(field: string, expected: string, got: unknown): ToolsieveError {
  return new ToolsieveError('invalid-chunk', `${field}: must be ${expected}, got ${describe(got)}`, field)
}

/** `v` as an object. @throws {ToolsieveError} `invalid-chunk` otherwise. */
export function record(v: unknown, field: string): Record<string, unknown> {
  if (!isRecord(v)) throw malformed(field, 'an object', v)
  return v
}

/** `v` as an object, or `undefined` when it is absent (`null` or `undefined`). @throws {ToolsieveError} `invalid-chunk` otherwise. */
export function optionalRecord(v: unknown, field: string): Record<string, unknown> | undefined {
  return absent(v) ? undefined : record(v, field)
}

/** `v` as a string, or `undefined` when it is absent. @throws {ToolsieveError} `invalid-chunk` otherwise. */
export function optionalString(v: unknown, field: string): string | undefined {
  if (absent(v)) return undefined
  if (typeof v !== 'string') throw malformed(field, 'a string', v)
  return v
}

/** `v` as an array, or `undefined` when it is absent. @throws {ToolsieveError} `invalid-chunk` otherwise. */
export function optionalArray(v: unknown, field: string): unknown[] | undefined {
  if (absent(v)) return undefined
  if (!Array.isArray(v)) throw malformed(field, 'an array', v)
  return v
}

/** `v` as an index (an integer, 0 or more). @throws {ToolsieveError} `invalid-chunk` otherwise. */
export function index(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw malformed(field, 'an integer index', v)
  return v
}
