/**
 * From the form's values to the sieve's options and the chunking. Plain
 * strings in, so that it is tested without a browser. Library errors
 * (`ToolsieveError`) pass through untouched: the page shows their code and
 * message as the library wrote them.
 */
import { ToolsieveError, validateGrammar } from 'toolsieve'
import type { Grammar, SieveOptions, ToolDefinition } from 'toolsieve'
import { positiveInteger, type Chunking } from './chunking.js'

export interface Fields {
  chunking: string
  size: string
  seed: string
  longest: string
  streamArguments: boolean
  captureLimit: string
  reasoning: boolean
  startInReasoning: boolean
  reasoningCalls: string
  strict: boolean
  onInvalid: string
  quoted: string
  tools: string
}

/** A field the form could not use: which one, and why (for the page's error box). */
export class FieldError extends Error {
  override readonly name = 'FieldError'
}

export function readChunking(f: Pick<Fields, 'chunking' | 'size' | 'seed' | 'longest'>): Chunking {
  switch (f.chunking) {
    case 'whole':
      return { kind: 'whole' }
    case 'units':
      return { kind: 'units' }
    case 'fixed':
      return { kind: 'fixed', size: positiveInteger(f.size, 'Chunk size') }
    case 'tokens': {
      const seed = Number(f.seed)
      if (f.seed.trim() === '' || !Number.isInteger(seed)) throw new FieldError(`Seed must be a whole number, got ${JSON.stringify(f.seed)}`)
      return { kind: 'tokens', seed, longest: positiveInteger(f.longest, 'Longest token') }
    }
    default:
      throw new FieldError(`Chunking ${JSON.stringify(f.chunking)} is not one of whole, fixed, tokens, units`)
  }
}

/**
 * The options, as a user of the library would pass them. `captureLimit` goes
 * to the library as typed (a number, or the text itself when it is not one),
 * so that the library's own check answers.
 */
export function readOptions(f: Fields, grammar: Grammar): SieveOptions {
  const options: SieveOptions = {
    grammar,
    streamArguments: f.streamArguments,
    reasoning: f.reasoning,
    startInReasoning: f.startInReasoning,
    reasoningCalls: f.reasoningCalls as SieveOptions['reasoningCalls'],
    strict: f.strict,
    onInvalid: f.onInvalid as SieveOptions['onInvalid'],
  }
  const limit = f.captureLimit.trim()
  if (limit !== '') options.captureLimit = /^-?\d+(\.\d+)?$/.test(limit) ? Number(limit) : (limit as unknown as number)
  if (f.quoted !== '') options.quoted = [f.quoted]
  if (f.tools.trim() !== '') options.tools = parseJson(f.tools, 'Tools') as ToolDefinition[]
  return options
}

/** Grammar JSON text to a validated grammar; a parse error is a `FieldError`, an invalid grammar the library's `GrammarError`. */
export function readGrammar(text: string): Grammar {
  return validateGrammar(parseJson(text, 'Grammar'))
}

function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new FieldError(`${field} is not JSON: ${(error as Error).message}`)
  }
}

/** The line the page shows for an error: a library error with its code, anything else with its message. */
export function describeError(error: unknown): string {
  if (error instanceof ToolsieveError) return `${error.name} (${error.code}): ${error.message}`
  if (error instanceof Error) return error.message
  return String(error)
}
