/**
 * JSON read losslessly: every number keeps the text the model wrote, so a
 * call's `arguments` can carry `9007199254740993` or `1.0` exactly while its
 * `input` holds JavaScript numbers. One loop with an explicit stack, nothing
 * recursive per nesting level: a value nested 100,000 deep (it fits in the
 * capture limit) must not take the call stack with it.
 *
 * ```
 * > | {"id": 9007199254740993, "tags": ["a"]}
 *     ^ an object: pushed, its first key read
 *            ^ a number not written as String(n) would: a JsonNumber
 *                                          ^ closes the array, which completes "tags"
 *                                           ^ closes the object: the stack is empty, the value is done
 * ```
 */
import { jsonNumber } from './json-number.js'
import { plainObject, setOwn } from './own.js'

export { JsonNumber } from './json-number.js'

/** A JSON value whose numbers may be {@link JsonNumber}s; containers are plain arrays and objects with own keys. */
export type Lossless = unknown

/**
 * `duplicate`: a key written twice in one object (the first such, as the
 * values complete). The value keeps the last, as `JSON.parse` does; other
 * parsers keep the first or refuse the text, so the same text may read as
 * different values: a caller that acts on one (a tool call) refuses it.
 */
export type JsonResult = { ok: true; value: Lossless; duplicate?: string } | { ok: false }

const fail: JsonResult = { ok: false }
const numberRe = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y

/** Char codes JSON's grammar dispatches on (docs/STYLE.md §7). */
const C = {
  tab: 0x09,
  lf: 0x0a,
  cr: 0x0d,
  space: 0x20,
  quote: 0x22,
  comma: 0x2c,
  colon: 0x3a,
  leftBracket: 0x5b,
  backslash: 0x5c,
  rightBracket: 0x5d,
  leftBrace: 0x7b,
  rightBrace: 0x7d,
} as const

/** JSON's whitespace only (space, tab, LF, CR), the same set XML trims. */
function skipWs(s: string, i: number): number {
  for (let c = s.charCodeAt(i); c === C.space || c === C.lf || c === C.cr || c === C.tab; c = s.charCodeAt(++i));
  return i
}

/**
 * Parses JSON text (whitespace around it allowed) into a {@link Lossless}
 * value. Refused as not JSON: anything `JSON.parse` refuses, and non-finite
 * numbers (`1e400`), which no JavaScript number can carry.
 */
export function parseJson(text: string): JsonResult {
  const p = new Reader(text)
  const v = p.run()
  if (v === fail) return fail
  return p.duplicate === undefined ? { ok: true, value: v } : { ok: true, value: v, duplicate: p.duplicate }
}

class Reader {
  i = 0
  /** Open containers, innermost last; `keys[k]` is the key the next value of `stack[k]` goes under. */
  readonly stack: Array<unknown[] | Record<string, unknown>> = []
  readonly keys: string[] = []
  /** The first key met again in the object that already has it (see {@link JsonResult}). */
  duplicate: string | undefined = undefined
  constructor(readonly s: string) {}

  run(): unknown {
    const s = this.s
    const stack = this.stack
    this.i = skipWs(s, 0)
    for (;;) {
      let value = this.scalarOrOpen()
      if (value === fail) return fail
      if (value === opened) continue
      // the value completes containers for as long as each one closes right after it
      for (;;) {
        const top = stack.length - 1
        if (top < 0) return skipWs(s, this.i) === s.length ? value : fail
        const into = stack[top]!
        const isArray = Array.isArray(into)
        if (isArray) into.push(value)
        else {
          const key = this.keys[top]!
          if (this.duplicate === undefined && Object.hasOwn(into, key)) this.duplicate = key
          setOwn(into, key, value)
        }
        this.i = skipWs(s, this.i)
        const c = s.charCodeAt(this.i++)
        if (c === C.comma) {
          this.i = skipWs(s, this.i)
          if (!isArray && !this.key(top)) return fail
          break
        }
        if (c !== (isArray ? C.rightBracket : C.rightBrace)) return fail
        stack.pop()
        value = into
      }
    }
  }

  /** A scalar at `i`, or a container opened (`opened`), or `fail`. */
  private scalarOrOpen(): unknown {
    const s = this.s
    const c = s.charCodeAt(this.i)
    if (c === C.leftBracket || c === C.leftBrace) {
      const isArray = c === C.leftBracket
      this.i = skipWs(s, this.i + 1)
      const container = isArray ? [] : plainObject()
      if (s.charCodeAt(this.i) === (isArray ? C.rightBracket : C.rightBrace)) {
        this.i++
        return container
      }
      this.stack.push(container)
      if (!isArray && !this.key(this.stack.length - 1)) return fail
      return opened
    }
    if (c === C.quote) return this.string()
    for (const [word, v] of words) {
      if (s.startsWith(word, this.i)) {
        this.i += word.length
        return v
      }
    }
    numberRe.lastIndex = this.i
    const m = numberRe.exec(s)
    if (m === null) return fail
    this.i = numberRe.lastIndex
    return jsonNumber(m[0]) ?? fail
  }

  /** `"key"` and `:` for the object at `stack[top]`, leaving `i` at its value. */
  private key(top: number): boolean {
    if (this.s.charCodeAt(this.i) !== C.quote) return false
    const k = this.string()
    if (k === fail) return false
    this.keys[top] = k as string
    this.i = skipWs(this.s, this.i)
    if (this.s.charCodeAt(this.i++) !== C.colon) return false
    this.i = skipWs(this.s, this.i)
    return true
  }

  /** A string at `i` (its opening quote). A loop, not a regex: a backtracking regex over a 200 KB string can overflow. */
  private string(): unknown {
    const s = this.s
    const start = this.i
    let escaped = false
    for (let j = start + 1; j < s.length; j++) {
      const c = s.charCodeAt(j)
      if (c === C.quote) {
        this.i = j + 1
        if (!escaped) return s.slice(start + 1, j)
        // escapes are rare: the platform decodes (and checks) them
        try {
          return JSON.parse(s.slice(start, j + 1)) as string
        } catch {
          return fail
        }
      }
      if (c === C.backslash) {
        escaped = true
        j++
      } else if (c < C.space) return fail
    }
    return fail
  }
}

/** Marks "a container was pushed: read its first value". */
const opened = Symbol('opened')
const words: ReadonlyArray<readonly [string, unknown]> = [
  ['true', true],
  ['false', false],
  ['null', null],
]
