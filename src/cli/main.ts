#!/usr/bin/env node
/**
 * The `toolsieve` command: `parse`, `bench`, `prompt`, `format`, `proxy`.
 * Each command lives in its own file and resolves to its exit code; this one
 * dispatches, and turns a thrown error into one line on stderr (exit 2 for
 * usage, 1 otherwise).
 */
import { errorLine, exit, UsageError } from './args.js'

export const mainHelp = `Usage: toolsieve <command> [options]

Commands:
  parse [FILE|-]          tool calls out of a transcript (text, JSONL, SSE)
  bench FILE...           your transcripts through the sieve: MB/s, calls, diagnostics
  prompt --tools FILE     the system-prompt section that teaches the tool format
  format [FILE|-]         calls (JSON) back into DSML or XML markup
  proxy --upstream URL    an OpenAI-compatible proxy that repairs leaked tool calls

Run toolsieve <command> --help for a command's options.
Exit codes: 0 ok, 1 diagnostics under --strict, 2 usage.
`

type Command = (argv: string[]) => Promise<number>

/** Loaded on demand, so that `parse` does not start the proxy's modules and the other way round. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  parse: async () => (await import('./parse.js')).parseCommandMain,
  bench: async () => (await import('./bench.js')).benchCommandMain,
  prompt: async () => (await import('./prompt.js')).promptCommandMain,
  format: async () => (await import('./format.js')).formatCommandMain,
  proxy: async () => (await import('./proxy.js')).proxyCommandMain,
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(mainHelp)
    return command === undefined ? exit.usage : exit.ok
  }
  if (command === '--version' || command === '-v') {
    const { createRequire } = await import('node:module')
    const pkg = createRequire(import.meta.url)('../../package.json') as { version: string }
    process.stdout.write(`${pkg.version}\n`)
    return exit.ok
  }
  const load = COMMANDS[command]
  if (load === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)} (parse, bench, prompt, format, proxy; see --help)`)
  return (await load())(rest)
}

// A reader that goes away (toolsieve parse … | head) is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(exit.ok)
  throw error
})

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(errorLine(error) + '\n')
    process.exitCode = error instanceof UsageError ? exit.usage : exit.diagnostics
  },
)
