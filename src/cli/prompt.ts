/**
 * `toolsieve prompt --tools tools.json`: the system-prompt section
 * `buildToolPrompt` writes, to paste into a prompt or a gateway's config.
 */
import { buildToolPrompt, type PromptToolDefinition } from '../index.js'
import { choiceFlag, exit, parseCommand, UsageError } from './args.js'
import { readTools } from './sieve-options.js'

export const promptHelp = `Usage: toolsieve prompt --tools FILE [options]

Prints the system-prompt section that teaches a model the tool-call markup
the sieve reads and lists the tools (descriptions filled in, object schemas
closed with additionalProperties: false).

Options:
  --tools FILE          the tools (JSON): an array of OpenAI chat tools,
                        { name, description, inputSchema } or names, or a
                        request with "tools"; - for stdin
  --dialect dsml|xml    DeepSeek's DSML (default) or plain XML
  -h, --help            this help

Exit: 0 ok, 2 usage (no --tools, unreadable file, a bad tool).
`

/** Runs `prompt`; resolves to the exit code. */
export async function promptCommandMain(argv: string[]): Promise<number> {
  const { values } = parseCommand('prompt', argv, { tools: { type: 'string' }, dialect: { type: 'string' } }, false)
  if (values.help === true) {
    process.stdout.write(promptHelp)
    return exit.ok
  }
  if (values.tools === undefined) throw new UsageError('prompt: --tools FILE is required (see --help)')
  const dialect = choiceFlag('prompt', 'dialect', values.dialect, ['dsml', 'xml'] as const, 'dsml')
  const tools = readTools('prompt', values.tools) as PromptToolDefinition[]
  let section: string
  try {
    section = buildToolPrompt(tools, { dialect })
  } catch (error) {
    const field = (error as { field?: unknown }).field
    throw new UsageError(`prompt: ${typeof field === 'string' ? `${field}: ` : ''}${(error as Error).message.split('\n')[0]}`)
  }
  process.stdout.write(section + '\n')
  return exit.ok
}
