/**
 * The sieve's options from the flags `parse` and `bench` share: `--grammar`,
 * `--dialect`, `--model`, `--tools`, `--strict`, `--thinking`.
 */
import { readFileSync } from 'node:fs'
import { createSieve, dialectForModel, type SieveOptions, type ToolDefinition } from '../index.js'
import { loadGrammar } from '../node.js'
import { UsageError } from './args.js'

/** The flag definitions, for `parseArgs`. */
export const sieveFlags = {
  grammar: { type: 'string' },
  dialect: { type: 'string' },
  model: { type: 'string' },
  tools: { type: 'string' },
  strict: { type: 'boolean' },
  thinking: { type: 'boolean' },
} as const

/** Reads a JSON file; a missing file or bad JSON is a usage error naming the flag. */
export function readJsonFile(command: string, flag: string, file: string): unknown {
  let text: string
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8')
  } catch (error) {
    throw new UsageError(`${command}: cannot read ${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new UsageError(`${command}: ${flag} ${file} is not JSON: ${(error as Error).message}`)
  }
}

/**
 * A tools file: an array of tools (names, OpenAI chat tools, `{ name,
 * inputSchema }`), or an object with a `tools` array (a whole chat request).
 */
export function readTools(command: string, file: string): ToolDefinition[] {
  const value = readJsonFile(command, '--tools', file)
  const tools = Array.isArray(value) ? value : (value as { tools?: unknown } | null)?.tools
  if (!Array.isArray(tools)) throw new UsageError(`${command}: --tools ${file} holds no tools (an array, or an object with a "tools" array)`)
  return tools as ToolDefinition[]
}

export interface SieveFlagValues {
  grammar?: string | undefined
  dialect?: string | undefined
  model?: string | undefined
  tools?: string | undefined
  strict?: boolean | undefined
  thinking?: boolean | undefined
}

/** Sieve options from the flags. A grammar that does not load is a usage error. */
export function sieveOptions(command: string, flags: SieveFlagValues): SieveOptions {
  const options: SieveOptions = {}
  if (flags.grammar !== undefined) {
    try {
      options.grammar = loadGrammar(flags.grammar)
    } catch (error) {
      throw new UsageError(`${command}: --grammar ${flags.grammar}: ${(error as Error).message.split('\n')[0]}`)
    }
  }
  if (flags.dialect !== undefined && flags.model !== undefined) throw new UsageError(`${command}: give --dialect or --model, not both`)
  if (flags.dialect !== undefined) options.dialect = flags.dialect
  if (flags.model !== undefined) {
    // the model's family and whether its template opens the reasoning in the prompt; a model no rule knows reads DSML
    const m = dialectForModel(flags.model)
    if (m !== undefined) {
      options.dialect = m.dialect
      if (m.startInReasoning) options.startInReasoning = true
    }
  }
  if (flags.tools !== undefined) options.tools = readTools(command, flags.tools)
  if (flags.strict === true) options.strict = true
  if (flags.thinking === true) options.startInReasoning = true
  try {
    // Tools compile when a sieve is created: a schema that does not compile is a flag error, said once, before any input is read.
    createSieve(options)
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message.split('\n')[0]}`)
  }
  return options
}
