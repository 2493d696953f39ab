/**
 * `toolsieve format calls.json`: calls back into markup with `formatToolCalls`.
 */
import { formatToolCalls, type FormattableCall, type FormatOptions } from '../index.js'
import { loadGrammar } from '../node.js'
import { exit, parseCommand, UsageError } from './args.js'
import { readJsonFile } from './sieve-options.js'

export const formatHelp = `Usage: toolsieve format [FILE|-] [options]

Writes calls as one tool-call block (DeepSeek's DSML by default). FILE
(default: stdin) holds JSON: an array of calls ({ name, input } or
{ name, arguments }, the sieve's tool-call events, OpenAI tool_calls
{ function: { name, arguments } }), one such call, or an OpenAI message
with "tool_calls".

Options:
  --spelling NAME   a frame of the grammar: dsml (default), fullwidth, xml
  --grammar FILE    a grammar config (JSON) whose names and frames to write
  -h, --help        this help

Exit: 0 ok, 2 usage (bad flags, unreadable or invalid calls).
`

/** OpenAI's `{ function: { name, arguments } }` or a call as is. */
function toCall(value: unknown, i: number): FormattableCall {
  const v = value as { function?: { name?: unknown; arguments?: unknown } } | null
  if (v !== null && typeof v === 'object' && v.function !== null && typeof v.function === 'object') {
    return { name: v.function.name as string, arguments: v.function.arguments as string }
  }
  if (v === null || typeof v !== 'object') throw new UsageError(`format: call ${i} is not an object`)
  return v as FormattableCall
}

/** Runs `format`; resolves to the exit code. */
export async function formatCommandMain(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand('format', argv, { spelling: { type: 'string' }, grammar: { type: 'string' } })
  if (values.help === true) {
    process.stdout.write(formatHelp)
    return exit.ok
  }
  if (positionals.length > 1) throw new UsageError(`format: one file at a time (got ${positionals.length})`)
  const file = positionals[0] ?? '-'
  if (file === '-' && process.stdin.isTTY === true) throw new UsageError('format: no input: give a FILE or pipe one in (see --help)')
  const value = readJsonFile('format', 'calls', file)
  const list = Array.isArray(value) ? value : Array.isArray((value as { tool_calls?: unknown } | null)?.tool_calls) ? (value as { tool_calls: unknown[] }).tool_calls : [value]
  const options: FormatOptions = {}
  if (values.spelling !== undefined) options.spelling = values.spelling
  if (values.grammar !== undefined) {
    try {
      options.grammar = loadGrammar(values.grammar)
    } catch (error) {
      throw new UsageError(`format: --grammar ${values.grammar}: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  let markup: string
  try {
    markup = formatToolCalls(list.map(toCall), options)
  } catch (error) {
    throw new UsageError(`format: ${(error as Error).message.split('\n')[0]}`)
  }
  process.stdout.write(markup.endsWith('\n') ? markup : markup + '\n')
  return exit.ok
}
