/**
 * Rule 4: a value that is exactly a JSON literal decodes to it. Anything
 * JSON.parse refuses (`02134`, `1.2.3`, `True`, `NaN`, `0x1F`) stays a string,
 * and so does anything it would not give back exactly.
 */

/** What can start a JSON text: `-`, a digit, `t`, `f`, `n`, `"`, `[`, `{`. */
const jsonStart = /^[-0-9tfn"[{]/
/** What can end one: a digit, `e` (true, false), `l` (null), `"`, `]`, `}`. */
const jsonEnd = /[0-9el"\]}]/
const integerLiteral = /^-?[0-9]+$/

export type Literal = { ok: true; value: unknown } | { ok: false }

const no: Literal = { ok: false }

/**
 * `text` is a JSON literal with no whitespace around it. Refused, so the text
 * stays a string: non-finite numbers (`1e400`) anywhere in it, and, unless
 * the writer said it is JSON (`exact: false`), a bare integer past 2^53 (an
 * id like `12345678901234567890` would lose digits).
 */
export function jsonLiteral(text: string, exact = true): Literal {
  if (!jsonStart.test(text) || !jsonEnd.test(text.charAt(text.length - 1))) return no
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return no
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return no
    if (exact && integerLiteral.test(text) && !Number.isSafeInteger(value)) return no
  } else if (value !== null && typeof value === 'object' && hasNonFinite(value)) return no
  return { ok: true, value }
}

function hasNonFinite(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isFinite(v)
  if (v === null || typeof v !== 'object') return false
  for (const x of Array.isArray(v) ? v : Object.values(v)) if (hasNonFinite(x)) return true
  return false
}
