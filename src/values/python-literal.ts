/**
 * Python literals as the raw-value dialects write them (`str()` of a dict:
 * `{'k': 'v', 'ok': True, 'n': None}`): dicts, lists, tuples, strings in
 * either quote with their escapes, numbers, `True`, `False`, `None`. What
 * Python's `ast.literal_eval` reads of these, and nothing else: no
 * expressions, no names, no calls.
 */
import { plainObject, setOwn } from './own.js'

export type PythonRead = { ok: true; value: unknown } | { ok: false }

const fail: PythonRead = { ok: false }

/** Nesting past this is refused: a hostile value must not exhaust the stack. */
const maxDepth = 256

/** Reads `text` (blanks around it allowed) as one Python literal. */
export function pythonLiteral(text: string): PythonRead {
  const r = new Reader(text)
  r.blanks()
  const value = r.value(0)
  if (value === failed) return fail
  r.blanks()
  return r.at === text.length ? { ok: true, value } : fail
}

const failed = Symbol('failed')
const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' }
const number = /[-+]?(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][-+]?\d+)?/y

class Reader {
  at = 0
  constructor(private readonly s: string) {}

  blanks(): void {
    while (this.at < this.s.length && ' \t\r\n'.includes(this.s[this.at]!)) this.at++
  }

  value(depth: number): unknown {
    if (depth > maxDepth) return failed
    const c = this.s[this.at]
    if (c === '{') return this.dict(depth)
    if (c === '[' || c === '(') return this.list(c === '[' ? ']' : ')', depth)
    if (c === "'" || c === '"') return this.string()
    for (const [word, v] of [['True', true], ['False', false], ['None', null]] as const) {
      if (this.s.startsWith(word, this.at) && !/\w/.test(this.s[this.at + word.length] ?? '')) {
        this.at += word.length
        return v
      }
    }
    number.lastIndex = this.at
    const m = number.exec(this.s)
    if (m === null || m[0] === '' || m[0] === '-' || m[0] === '+') return failed
    this.at = number.lastIndex
    const n = Number(m[0].replace(/_/g, ''))
    return Number.isFinite(n) ? n : failed
  }

  private list(close: string, depth: number): unknown {
    this.at++
    const out: unknown[] = []
    for (;;) {
      this.blanks()
      if (this.s[this.at] === close) {
        this.at++
        return out
      }
      const v = this.value(depth + 1)
      if (v === failed) return failed
      out.push(v)
      this.blanks()
      if (this.s[this.at] === ',') this.at++
      else if (this.s[this.at] !== close) return failed
    }
  }

  private dict(depth: number): unknown {
    this.at++
    const out = plainObject()
    for (;;) {
      this.blanks()
      if (this.s[this.at] === '}') {
        this.at++
        return out
      }
      const key = this.value(depth + 1)
      // JSON has string keys only: a dict keyed otherwise has no JSON form
      if (typeof key !== 'string') return failed
      this.blanks()
      if (this.s[this.at] !== ':') return failed
      this.at++
      this.blanks()
      const v = this.value(depth + 1)
      if (v === failed) return failed
      setOwn(out, key, v)
      this.blanks()
      if (this.s[this.at] === ',') this.at++
      else if (this.s[this.at] !== '}') return failed
    }
  }

  private string(): unknown {
    const q = this.s[this.at]!
    this.at++
    let out = ''
    while (this.at < this.s.length) {
      const c = this.s[this.at]!
      if (c === q) {
        this.at++
        return out
      }
      if (c === '\n') return failed
      if (c !== '\\') {
        out += c
        this.at++
        continue
      }
      const e = this.s[this.at + 1]
      if (e === undefined) return failed
      const hex = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0
      if (hex > 0) {
        const digits = this.s.slice(this.at + 2, this.at + 2 + hex)
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) return failed
        const cp = parseInt(digits, 16)
        if (cp > 0x10ffff) return failed
        out += String.fromCodePoint(cp)
        this.at += 2 + hex
      } else if (e in escapes) {
        out += escapes[e]
        this.at += 2
      } else {
        // Python keeps an unknown escape as written
        out += '\\' + e
        this.at += 2
      }
    }
    return failed
  }
}
