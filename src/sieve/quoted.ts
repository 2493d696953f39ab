/**
 * The prompt-example guard (`quoted`): the calls written in the quoted texts
 * (typically the user's latest message), and how a live call is compared
 * with them.
 *
 * The rule, failing closed: a block with ANY call equal to a quoted call is
 * the model repeating the user's example, and the whole block is text
 * (`quoted-example`), its other calls with it. A model that echoes one quoted
 * invoke inside a block of its own calls must not get the example run by
 * wrapping it; and a block is one decision (its calls run together or not at
 * all), so its other calls do not run alone either.
 *
 * Two calls are equal when their names are and their inputs are after
 * {@link looseKey}: decoded as the sieve decodes a live call (the same value
 * rules and tool schema), then compared with every scalar as its text, so the
 * same call written `string="true">1` and `>1` is one call.
 */
import { codeAt } from '../lexer/codes.js'

/** The calls read from the quoted texts (`quoted-reader.ts`). */
export class QuotedCalls {
  private readonly keys = new Set<string>()
  private readonly names = new Set<string>()
  /** Names every call of which counts as quoted: openers past the reading budget, whose arguments were not read. */
  private readonly anyArguments = new Set<string>()

  add(name: string, input: unknown): void {
    this.keys.add(looseKey(name, input))
    this.names.add(name)
  }

  addName(name: string): void {
    this.anyArguments.add(name)
    this.names.add(name)
  }

  /** No call was found: the guard passes everything. */
  get empty(): boolean {
    return this.names.size === 0
  }

  /** Whether a call named `name` may be a quoted one (its arguments decide): a streamed call waits until they do. */
  named(name: string): boolean {
    return this.names.has(name)
  }

  /** Whether the call is a quoted one. */
  matches(name: string, input: unknown): boolean {
    return this.anyArguments.has(name) || (this.names.has(name) && this.keys.has(looseKey(name, input)))
  }

  /** Whether any of `calls` is a quoted one: the block they form is an example. */
  anyOf(calls: ReadonlyArray<{ name: string; input: unknown }>): boolean {
    return calls.some((c) => this.matches(c.name, c.input))
  }

  /**
   * A short identity of what the guard compares with ('' when it found no
   * call), stored in checkpoints: a resume whose quoted texts hold other
   * calls would judge a block half-read under other rules.
   */
  fingerprint(): string {
    if (this.empty) return ''
    const all = [...[...this.keys].map((k) => 'k' + k), ...[...this.anyArguments].map((n) => 'n' + JSON.stringify(n))].sort()
    return hash(all.join('\n'))
  }
}

/** Two 32-bit FNV-1a halves over the UTF-16 code units, 16 hex digits: an identity, not a secret. */
function hash(text: string): string {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ text.length
  for (let i = 0; i < text.length; i++) {
    const c = codeAt(text, i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15)
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0')
}

const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/** A scalar as the text it is written as: `1`, `"1"` and `"1.0"` are one; `true` and `"true"` are one. */
function scalarText(v: unknown): string {
  if (typeof v === 'string') {
    const t = v.trim()
    return jsonNumber.test(t) ? String(Number(t)) : v
  }
  return typeof v === 'number' || typeof v === 'boolean' || v === null ? String(v) : ''
}

/** A string holding a JSON object or array (a `string="true"` value of an object parameter) as that value. */
function parsedJson(v: string): unknown {
  const t = v.trim()
  if (!((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']')))) return undefined
  try {
    return JSON.parse(t) as unknown
  } catch {
    return undefined
  }
}

/**
 * One call as a comparison key: its name and its input, keys sorted, every
 * scalar as its text ({@link scalarText}), a string holding JSON as that
 * JSON. Written with a stack, not recursion: inputs nest deep.
 */
export function looseKey(name: string, input: unknown): string {
  let out = JSON.stringify(name) + ':'
  const work: unknown[] = [input]
  while (work.length > 0) {
    const item = work.pop()
    if (item instanceof Literal) {
      out += item.text
      continue
    }
    const value = typeof item === 'string' ? (parsedJson(item) ?? item) : item
    if (Array.isArray(value)) {
      work.push(Literal.close)
      for (let i = value.length - 1; i >= 0; i--) work.push(value[i], i > 0 ? Literal.comma : Literal.none)
      out += '['
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value).sort()
      work.push(Literal.closeObject)
      for (let i = keys.length - 1; i >= 0; i--) work.push((value as Record<string, unknown>)[keys[i]!], new Literal((i > 0 ? ',' : '') + JSON.stringify(keys[i]) + ':'))
      out += '{'
    } else out += JSON.stringify(scalarText(value))
  }
  return out
}

/** Markup written between values in {@link looseKey}. */
class Literal {
  static readonly close = new Literal(']')
  static readonly closeObject = new Literal('}')
  static readonly comma = new Literal(',')
  static readonly none = new Literal('')
  constructor(readonly text: string) {}
}
