/**
 * The prompt-example guard: a block whose calls all equal — name and input
 * deep-equal — the calls of a block in one of the `quoted` texts (typically
 * the user's latest message) is the model repeating the user's own example,
 * and must not run. The quoted texts are read once, when the sieve is made.
 */
import type { ToolCallEvent } from '../types.js'
import { writeJson } from '../values/json-write.js'

/** One call as a key: its name and its input as canonical JSON (keys sorted; written without recursion: inputs nest deep). */
export function callKey(name: string, input: unknown): string {
  return JSON.stringify(name) + ':' + writeJson(input, { sortKeys: true }).json
}

/** The key of a whole block: its calls' keys in order. */
export function blockKey(calls: ReadonlyArray<Pick<ToolCallEvent, 'name' | 'input'>>): string {
  return calls.map((c) => callKey(c.name, c.input)).join('\n')
}
