/**
 * Rule 4: a value that is exactly a JSON literal decodes to it. Anything
 * JSON refuses (`02134`, `1.2.3`, `True`, `NaN`, `0x1F`) stays a string, and
 * so does a non-finite number (`1e400`), anywhere in it. Numbers keep their
 * digits ({@link JsonNumber}): an integer past 2^53 is a number like any
 * other, exact in `arguments`, the nearest double in `input` — the same as
 * when the writer marked it `string="false"`.
 */
import { parseJson, type JsonResult } from './json.js'

/** What can start a JSON text: `-`, a digit, `t`, `f`, `n`, `"`, `[`, `{`. */
const jsonStart = /^[-0-9tfn"[{]/
/** What can end one: a digit, `e` (true, false), `l` (null), `"`, `]`, `}`. */
const jsonEnd = /[0-9el"\]}]/

export type Literal = JsonResult

const no: Literal = { ok: false }

/** `text` is a JSON literal with no whitespace around it. */
export function jsonLiteral(text: string): Literal {
  // most plain values are words: two character tests send them back before any parsing
  if (!jsonStart.test(text) || !jsonEnd.test(text.charAt(text.length - 1))) return no
  return parseJson(text)
}
