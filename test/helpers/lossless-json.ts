/**
 * A lossless JSON comparison for tool-call `arguments`: number tokens are
 * kept as written, so `100.0` is not `100` and `9007199254740993` is not
 * `9007199254740992`, while spacing, key order and string escapes do not
 * matter. Used by the tests over DeepSeek's encoder output and other
 * projects' fixtures (`test/fixtures-external/`), whose expected arguments
 * are Python `json.dumps` text.
 */
function show(value: unknown, max = 60): string {
  const s = JSON.stringify(value) ?? String(value)
  return s.length > max ? `${s.slice(0, max)}…` : s
}

/** A JSON number as written. */
class LNum {
  constructor(readonly text: string) {}
}
/** A JSON object; a repeated key keeps its last value, as `JSON.parse` does. */
class LObj {
  constructor(readonly entries: Map<string, LValue>) {}
}
type LValue = null | boolean | string | LNum | LObj | LValue[]

const TOKEN = /\s*(?:([[\]{},:])|("(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")|(-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)|(true|false|null))/y

/** Parses JSON text, keeping each number's text. Throws a `SyntaxError` on anything that is not JSON. */
export function parseLossless(text: string): LValue {
  let at = 0
  type Tok = { punct?: string; value?: LValue }
  const next = (): Tok => {
    TOKEN.lastIndex = at
    const m = TOKEN.exec(text)
    if (m === null) throw new SyntaxError(`not JSON at ${at}: ${show(text.slice(at, at + 20))}`)
    at = TOKEN.lastIndex
    if (m[1] !== undefined) return { punct: m[1] }
    if (m[2] !== undefined) return { value: JSON.parse(m[2]) as string }
    if (m[3] !== undefined) return { value: new LNum(m[3]) }
    return { value: m[4] === 'null' ? null : m[4] === 'true' }
  }
  const value = (tok: Tok): LValue => {
    if (tok.punct === undefined) return tok.value ?? null
    if (tok.punct === '[') {
      const items: LValue[] = []
      let t = next()
      if (t.punct === ']') return items
      for (;;) {
        items.push(value(t))
        t = next()
        if (t.punct === ']') return items
        if (t.punct !== ',') throw new SyntaxError(`expected , or ] at ${at}`)
        t = next()
      }
    }
    if (tok.punct === '{') {
      const entries = new Map<string, LValue>()
      let t = next()
      if (t.punct === '}') return new LObj(entries)
      for (;;) {
        if (typeof t.value !== 'string' || t.punct !== undefined) throw new SyntaxError(`expected a key at ${at}`)
        const key = t.value
        if (next().punct !== ':') throw new SyntaxError(`expected : at ${at}`)
        entries.set(key, value(next()))
        t = next()
        if (t.punct === '}') return new LObj(entries)
        if (t.punct !== ',') throw new SyntaxError(`expected , or } at ${at}`)
        t = next()
      }
    }
    throw new SyntaxError(`unexpected ${tok.punct} at ${at}`)
  }
  const result = value(next())
  if (!/^\s*$/.test(text.slice(at))) throw new SyntaxError(`trailing text at ${at}`)
  return result
}

function losslessDiff(a: LValue, b: LValue, path: string): string | null {
  const where = path || '/'
  if (a instanceof LNum || b instanceof LNum) {
    if (a instanceof LNum && b instanceof LNum && a.text === b.text) return null
    return `${where}: ${render(a)}, expected ${render(b)}`
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return `${where}: ${render(a)}, expected ${render(b)}`
    for (let i = 0; i < a.length; i++) {
      const d = losslessDiff(a[i]!, b[i]!, `${path}/${i}`)
      if (d !== null) return d
    }
    return null
  }
  if (a instanceof LObj || b instanceof LObj) {
    if (!(a instanceof LObj && b instanceof LObj)) return `${where}: ${render(a)}, expected ${render(b)}`
    const keys = new Set([...a.entries.keys(), ...b.entries.keys()])
    for (const k of keys) {
      if (!a.entries.has(k) || !b.entries.has(k)) return `${where}: key ${show(k)} ${a.entries.has(k) ? 'unexpected' : 'missing'}`
      const d = losslessDiff(a.entries.get(k)!, b.entries.get(k)!, `${path}/${k}`)
      if (d !== null) return d
    }
    return null
  }
  return a === b ? null : `${where}: ${render(a)}, expected ${render(b)}`
}

function render(v: LValue): string {
  if (v instanceof LNum) return v.text
  if (v instanceof LObj) return `{${[...v.entries].map(([k, x]) => `${JSON.stringify(k)}:${render(x)}`).join(',')}}`
  if (Array.isArray(v)) return `[${v.map(render).join(',')}]`
  return show(v)
}

/**
 * Whether two JSON texts mean the same, with number tokens compared by their
 * text: spacing and object key order do not matter, string escapes are
 * decoded, `5.0` differs from `5`. `null` when equal, else the first difference.
 */
export function argumentsProblem(actual: string, expected: string): string | null {
  let a: LValue
  try {
    a = parseLossless(actual)
  } catch (error) {
    return `arguments is not JSON (${(error as Error).message}): ${show(actual)}`
  }
  const d = losslessDiff(a, parseLossless(expected), '')
  return d === null ? null : `arguments ${d}`
}
