/** `parseToolCalls`: the whole text at once, with exactly the streaming semantics. */
import type { DiagnosticEvent, ErrorEvent, ParseResult, ParsedToolCall, SieveOptions } from './types.js'
import { createSieve } from './sieve/create.js'

/**
 * Extract tool calls from a complete text. Gives the same calls, text and
 * diagnostics as streaming the text through {@link createSieve} in one chunk.
 */
export function parseToolCalls(text: string, options: Omit<SieveOptions, 'resume'> = {}): ParseResult {
  const sieve = createSieve(options)
  const events = [...sieve.push(text), ...sieve.end()]
  const calls: ParsedToolCall[] = []
  const diagnostics: DiagnosticEvent[] = []
  const errors: ErrorEvent[] = []
  const texts: string[] = []
  for (const e of events) {
    if (e.type === 'text') texts.push(e.text)
    else if (e.type === 'diagnostic') diagnostics.push(e)
    else if (e.type === 'error') errors.push(e)
    else {
      const { type: _type, ...call } = e
      calls.push(call)
    }
  }
  return { calls, text: texts.join(''), diagnostics, errors, sawToolCallSyntax: sieve.sawToolCallSyntax() }
}
