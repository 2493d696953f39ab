/**
 * What every command shares: `node:util` `parseArgs` with the errors it
 * throws turned into usage errors, the exit codes, and one-line error
 * reporting on stderr.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util'

/** Exit codes of every command. */
export const exit = {
  ok: 0,
  /** `--strict` and a diagnostic (or an input line that could not be read). */
  diagnostics: 1,
  /** Bad flags, a missing or unreadable file: the command could not run as given. */
  usage: 2,
} as const

/** The command cannot run as given (exit 2). Its message is the one line printed (line breaks in it become spaces). */
export class UsageError extends Error {
  override name = 'UsageError'
  constructor(message: string) {
    super(oneLine(message))
  }
}

/** Every error is one line on stderr, whatever wrote its message. */
const oneLine = (message: string): string => message.replace(/\s*[\r\n]+\s*/g, ' ').trim()

/** A command's flag definitions, as `parseArgs` takes them. */
export type CommandOptions = NonNullable<ParseArgsConfig['options']>

const helpFlag = { help: { type: 'boolean', short: 'h' } } as const

/** What {@link parseCommand} returns: `parseArgs`'s result for the command's flags plus `help`. */
export type ParsedCommand<O extends CommandOptions> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O & typeof helpFlag; allowPositionals: boolean; strict: true }>
>

/**
 * `parseArgs` in strict mode, plus `--help` / `-h` on every command. Unknown
 * flags and missing values become a {@link UsageError} naming the command,
 * rather than Node's `TypeError` with its internal code.
 */
export function parseCommand<O extends CommandOptions>(command: string, argv: string[], options: O, allowPositionals = true): ParsedCommand<O> {
  try {
    return parseArgs({ args: argv, options: { ...options, ...helpFlag }, allowPositionals, strict: true })
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error)
    // `--chunk -1`: Node's three lines say the value looks like a flag; one line says the same.
    const ambiguous = /^Option '(?:-\w, )?(--[^']+)' argument is ambiguous/.exec(message)
    if (ambiguous !== null) throw new UsageError(`${command}: ${ambiguous[1]} needs a value; for one starting with -, write ${ambiguous[1]}=${argv[argv.indexOf(ambiguous[1]!) + 1] ?? '-…'}`)
    throw new UsageError(`${command}: ${message}`)
  }
}

/** A flag that must be a positive integer (`--jobs 2`, `--port 8787`). */
export function integerFlag(command: string, name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${command}: --${name} must be an integer of at least ${min}, not ${JSON.stringify(value)}`)
  return n
}

/** A flag whose value is one of a few words. */
export function choiceFlag<T extends string>(command: string, name: string, value: string | undefined, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback
  if ((choices as readonly string[]).includes(value)) return value as T
  throw new UsageError(`${command}: --${name} must be one of ${choices.join(', ')}, not ${JSON.stringify(value)}`)
}

/** The one line an error becomes on stderr: no stack, no `Error:` prefix for our own errors. */
export function errorLine(error: unknown): string {
  // A command's own errors start with its name (`parse: …`), read as `toolsieve parse: …`.
  if (error instanceof UsageError) return /^[a-z]+: /.test(error.message) ? `toolsieve ${error.message}` : `toolsieve: ${error.message}`
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    const field = (error as { field?: unknown }).field
    const where = typeof field === 'string' && field !== '' && !error.message.includes(field) ? ` (${field})` : ''
    return `toolsieve: ${typeof code === 'string' ? `${code}: ` : ''}${error.message.split('\n')[0]}${where}`
  }
  return `toolsieve: ${String(error)}`
}
