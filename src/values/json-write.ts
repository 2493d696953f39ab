/**
 * Writing {@link Lossless} values back as JSON text, iteratively: a call's
 * `arguments` (numbers as the model wrote them), a string reading of a
 * structured value, and the canonical text of a schema (sorted keys) that
 * keys the validator cache. `JSON.stringify` recurses per nesting level and
 * throws past a few thousand; this keeps an explicit stack.
 *
 * Everything but numbers matches `JSON.stringify`: strings and keys are
 * quoted by it, `undefined` and functions are skipped in objects and `null`
 * in arrays, non-finite numbers are `null`.
 */
import { JsonNumber } from './json-number.js'
import { setOwn } from './own.js'

export interface WriteOptions {
  /** Object keys in sorted order (a canonical text: key order does not change it). */
  sortKeys?: boolean
  /**
   * Replace each {@link JsonNumber} met by its double, in place, as it is
   * written: the one pass that gives `arguments` its digits turns the same
   * tree into the call's plain `input`.
   */
  settle?: boolean
  /**
   * The top-level object's keys in this order (the parameters' document
   * order), then any others; JavaScript would put integer-like keys first.
   */
  order?: readonly string[]
}

export interface Written {
  json: string
  /** Deepest container nesting met (`{}` is 1, a scalar 0). */
  depth: number
}

interface Frame {
  array: readonly unknown[] | null
  object: Record<string, unknown> | null
  keys: string[] | null
  next: number
  /** An object member was written: the next one needs a comma. */
  wrote: boolean
}

function skipped(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol'
}

/**
 * `value` as JSON text. A cycle throws a `TypeError`, as with `JSON.stringify`
 * (only a caller's schema object can have one; decoded values never do).
 */
export function writeJson(value: unknown, opts: WriteOptions = {}): Written {
  const flat = flatObject(value, opts)
  if (flat !== null) return flat
  // concatenation, not an array of pieces: V8 builds ropes, joined once when read
  let out = ''
  const stack: Frame[] = []
  // containers open on the stack: a shared subtree is fine, a cycle is not
  const open = new Set<object>()
  const settle = opts.settle === true
  let depth = 0
  let v = value
  for (;;) {
    if (v === null) out += 'null'
    else if (typeof v === 'string') out += JSON.stringify(v)
    else if (typeof v === 'number') out += Number.isFinite(v) ? String(v) : 'null'
    else if (typeof v === 'boolean') out += v ? 'true' : 'false'
    else if (typeof v === 'bigint') throw new TypeError('a BigInt is not JSON')
    else if (v instanceof JsonNumber) out += v.source
    else if (typeof v === 'object') {
      if (open.has(v)) throw new TypeError('cannot write a cyclic structure as JSON')
      open.add(v)
      const isArray = Array.isArray(v)
      out += isArray ? '[' : '{'
      let keys: string[] | null = null
      if (!isArray) {
        keys = Object.keys(v)
        if (opts.sortKeys === true) keys.sort()
        else if (opts.order !== undefined && stack.length === 0) keys = inOrder(keys, opts.order)
      }
      stack.push({ array: isArray ? (v as unknown[]) : null, object: isArray ? null : (v as Record<string, unknown>), keys, next: 0, wrote: false })
      if (stack.length > depth) depth = stack.length
    } else out += 'null'
    // the next value to write, closing every container that is done
    let found = false
    while (!found && stack.length > 0) {
      const f = stack[stack.length - 1]!
      if (f.array !== null) {
        const a = f.array
        if (f.next < a.length) {
          if (f.next > 0) out += ','
          v = a[f.next]
          if (settle && v instanceof JsonNumber) (a as unknown[])[f.next] = v.value
          else if (skipped(v)) v = null
          f.next++
          found = true
        } else {
          out += ']'
          open.delete(a)
          stack.pop()
        }
        continue
      }
      const o = f.object!
      const keys = f.keys!
      while (f.next < keys.length) {
        const k = keys[f.next++]!
        const x = o[k]
        if (skipped(x)) continue
        if (f.wrote) out += ','
        f.wrote = true
        out += JSON.stringify(k) + ':'
        if (settle && x instanceof JsonNumber) setOwn(o, k, x.value)
        v = x
        found = true
        break
      }
      if (!found) {
        out += '}'
        open.delete(o)
        stack.pop()
      }
    }
    if (!found) return { json: out, depth }
  }
}

/**
 * A call's most common arguments, an object of strings, booleans, null and
 * plain numbers whose keys already stand in the order asked for: written
 * by `JSON.stringify` natively, which writes all of those as this module
 * does (no number keeps its digits here, so there is nothing to settle).
 * Null for anything else.
 */
function flatObject(v: unknown, opts: WriteOptions): Written | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof JsonNumber || opts.sortKeys === true) return null
  const o = v as Record<string, unknown>
  // `JSON.stringify` would call a `toJSON` method (an own string value named so is no method)
  if (typeof o.toJSON === 'function') return null
  const keys = Object.keys(o)
  const order = opts.order
  if (order !== undefined) {
    if (order.length !== keys.length) return null
    for (let i = 0; i < keys.length; i++) if (order[i] !== keys[i]) return null
  }
  for (let i = 0; i < keys.length; i++) {
    const x = o[keys[i]!]
    const t = typeof x
    if (t !== 'string' && t !== 'boolean' && t !== 'number' && x !== null) return null
  }
  return { json: JSON.stringify(o), depth: 1 }
}

/** `keys` with those of `order` first, in its order (each once), then the rest as they were. */
function inOrder(keys: string[], order: readonly string[]): string[] {
  const present = new Set(keys)
  const out: string[] = []
  const taken = new Set<string>()
  for (const k of order) {
    if (present.has(k) && !taken.has(k)) {
      out.push(k)
      taken.add(k)
    }
  }
  if (out.length === keys.length) return out
  for (const k of keys) if (!taken.has(k)) out.push(k)
  return out
}
