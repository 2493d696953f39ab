/**
 * The prompt-example guard: a block whose calls all equal — name and input
 * deep-equal — the calls of a block in one of the `quoted` texts (typically
 * the user's latest message) is the model repeating the user's own example,
 * and must not run. The quoted texts are read once, when the sieve is made.
 */
import type { ToolCallEvent } from '../types.js'

/** One call as a key: its name and its input with keys sorted, as JSON (written without recursion: inputs nest deep). */
export function callKey(name: string, input: unknown): string {
  let out = JSON.stringify(name) + ':'
  // a work list of what is left to write: values, or literal text (`,` `]` `}`) between them
  const todo: Array<{ value: unknown } | string> = [{ value: input }]
  while (todo.length > 0) {
    const next = todo.pop()!
    if (typeof next === 'string') {
      out += next
      continue
    }
    const v = next.value
    if (Array.isArray(v)) {
      out += '['
      todo.push(']')
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ value: v[i] })
        if (i > 0) todo.push(',')
      }
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort()
      out += '{'
      todo.push('}')
      for (let i = keys.length - 1; i >= 0; i--) {
        todo.push({ value: (v as Record<string, unknown>)[keys[i]!] })
        todo.push(JSON.stringify(keys[i]) + ':')
        if (i > 0) todo.push(',')
      }
    } else out += JSON.stringify(v) ?? 'null'
  }
  return out
}

/** The key of a whole block: its calls' keys in order. */
export function blockKey(calls: ReadonlyArray<Pick<ToolCallEvent, 'name' | 'input'>>): string {
  return calls.map((c) => callKey(c.name, c.input)).join('\n')
}
