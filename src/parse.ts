/** `parseToolCalls`: the whole text at once, with exactly the streaming semantics. */
import type { DiagnosticEvent, ErrorEvent, ParseResult, ParsedToolCall, SieveOptions } from './types.js'
import { createSieve } from './sieve/create.js'

/**
 * Extract tool calls from a complete text. Gives the same calls, text and
 * diagnostics as streaming the text through {@link createSieve} in one chunk.
 * `null` and `undefined` are empty text; options are checked as there.
 *
 * @throws {ToolsieveError} for a bad option (`invalid-option`, …) or a
 *   `text` that is not a string, `null` or `undefined` (`invalid-chunk`).
 */
export function parseToolCalls(text: string | null | undefined, options?: Omit<SieveOptions, 'resume'> | null): ParseResult {
  const sieve = createSieve(options)
  // `null` is no text (a chat completion's `message.content` when the model only made native tool calls)
  const events = [...sieve.push(text), ...sieve.end()]
  const calls: ParsedToolCall[] = []
  const diagnostics: DiagnosticEvent[] = []
  const errors: ErrorEvent[] = []
  const texts: string[] = []
  const reasoning: string[] = []
  for (const e of events) {
    if (e.type === 'text') texts.push(e.text)
    else if (e.type === 'reasoning') reasoning.push(e.text)
    else if (e.type === 'diagnostic') diagnostics.push(e)
    else if (e.type === 'error') errors.push(e)
    else if (e.type === 'tool-call') {
      const { type: _type, ...call } = e
      calls.push(call)
    }
  }
  return { calls, text: texts.join(''), reasoning: reasoning.join(''), diagnostics, errors, sawToolCallSyntax: sieve.sawToolCallSyntax() }
}
