/**
 * `buildToolPrompt`: the system-prompt section that teaches a model without
 * native tools to call them in the markup the sieve reads. The format is the
 * one DeepSeek's own encoders write (strings raw under `string="true"`,
 * everything else JSON under `string="false"`), so a DeepSeek model sees what
 * it was trained on and any other model gets one unambiguous rule per value.
 * The example call is written by `formatToolCalls` from {@link exampleCall},
 * so what the prompt shows is what the sieve reads back (a test checks it).
 */
import { refuseUnknownOptions, ToolsieveError } from '../errors.js'
import { formatToolCalls } from '../format/format.js'
import { promptTools, type PromptToolDefinition } from './normalize.js'
import { resolveDialect } from '../dialects/registry.js'
import type { DialectPack } from '../dialects/types.js'
import { dialectRules } from './dialect-prompt.js'
import { blockOf } from '../format/dialect.js'

export type { PromptToolDefinition } from './normalize.js'

/** Options of {@link buildToolPrompt}. */
export interface ToolPromptOptions {
  /**
   * The markup the model is taught: `'dsml'`, DeepSeek's
   * `<｜DSML｜tool_calls>` with U+FF5C bars (what DeepSeek models are trained
   * on), or `'xml'`, plain `<tool_calls><invoke name="…"><parameter name="…"
   * string="…">`. The sieve reads both either way. Default `'dsml'`.
   *
   * Or a dialect pack, by name of `dialects` (`'qwen3-coder'`, `'hermes'`…)
   * or as data: the model is taught the format its family was trained on,
   * with an example written by `formatToolCalls` with the same pack. A pack
   * built on the default grammar (`deepseek`) teaches DSML.
   */
  dialect?: 'dsml' | 'xml' | (string & {}) | DialectPack
  /** The pack's block to teach, by name (`'array'` for Mistral before tokenizer v11). Default: its first. */
  variant?: string
}

/**
 * The call the prompt shows as its example: a made-up tool, named as such in
 * the prompt, with one value of each kind the rules distinguish (a string
 * with characters that would need escaping in XML, a number, a boolean).
 */
export const exampleCall = {
  name: 'search_docs',
  input: { query: 'price < 10 & "in stock"', limit: 5, exact: false },
} as const

const dialects = new Set(['dsml', 'xml'])

/** The options of {@link buildToolPrompt}, in {@link ToolPromptOptions}: any other key is refused. */
const promptOptionKeys = ['dialect', 'variant']

function rules(dialect: 'dsml' | 'xml'): string {
  const tag = dialect === 'dsml' ? '<｜DSML｜tool_calls>' : '<tool_calls>'
  const example = formatToolCalls([exampleCall], { spelling: dialect })
  return [
    '# Tools',
    '',
    `You can call the tools listed below. To call tools, write one ${tag} block at the end of your reply, in exactly this form:`,
    '',
    example,
    '',
    `That example calls a made-up tool, ${exampleCall.name}, with query set to the text ${JSON.stringify(exampleCall.input.query)} (written raw in the block), limit set to the number ${exampleCall.input.limit} and exact set to ${exampleCall.input.exact}. It is not one of your tools.`,
    '',
    'How to write a call:',
    '- One invoke per call, named after the tool; put several invokes in one block to call several tools.',
    '- A string value: string="true", and the text exactly as it is, with no quotes, no escaping, no entities and no CDATA.',
    '- Any other value (number, boolean, null, array, object): string="false", and the value as JSON.',
    '- Give only the parameters the tool declares, with the types its schema asks for, and every required one. If you lack a required value, ask the user instead of guessing.',
    '- After the block, stop: the results come back in the next message. Then answer the user in plain language.',
    '',
    `Write the block only to call a tool now. Never write it, or any part of it, as an example, in Markdown code (fenced or inline), in a quote, or in your reasoning. To show or explain the format, describe it in words.`,
  ].join('\n')
}

/** The rules for `dialect`, checked now and written only when there are tools. */
function sectionRules(dialect: NonNullable<ToolPromptOptions['dialect']>, variant: string | undefined): () => string {
  if (typeof dialect === 'string' && dialects.has(dialect)) {
    if (variant !== undefined) throw new ToolsieveError('invalid-option', 'variant names a block of a dialect pack, not of dsml or xml', 'variant')
    return () => rules(dialect as 'dsml' | 'xml')
  }
  let pack: DialectPack
  try {
    pack = resolveDialect(dialect)
  } catch (e) {
    if (e instanceof ToolsieveError && e.code === 'invalid-option') {
      throw new ToolsieveError('invalid-option', `dialect must be 'dsml', 'xml' or a dialect pack (${e.message}), got ${JSON.stringify(dialect)}`, 'dialect')
    }
    throw e
  }
  blockOf(pack, variant)
  // a pack on the default grammar is DSML: taught as DeepSeek's encoders write it
  if (pack.grammar === 'default') return () => rules('dsml')
  let text: string
  try {
    text = dialectRules(pack, variant)
  } catch (e) {
    // the refusal names the example's call (calls[0]), a list the caller never gave: the pack is at fault
    if (e instanceof ToolsieveError && e.code === 'invalid-option') {
      throw new ToolsieveError('invalid-option', `dialect "${pack.name}" cannot write the prompt's example call: ${e.message.replace(/^calls\[0\]\.?/, 'its ')}`, 'dialect')
    }
    throw e
  }
  return () => text
}

/**
 * A system-prompt section, in plain English, that teaches a model the
 * tool-call markup the sieve reads (DeepSeek DSML by default, or plain XML)
 * and lists `tools` with their JSON schemas, normalised: a missing tool or
 * top-level parameter description is filled in, and every object schema that
 * lists its properties (and says nothing of others) gets
 * `additionalProperties: false`. `tools` takes what the sieve's `tools`
 * option takes (names, OpenAI chat tools, `{ name, inputSchema }`,
 * `input_schema`), descriptions included; the given schemas are not changed.
 *
 * ```ts
 * const system = buildToolPrompt([{ type: 'function', function: { name: 'read_file', parameters } }])
 * ```
 *
 * @throws {ToolsieveError} `invalid-option` for a bad tool (`field` `tools[i]`, as
 *   `createSieve` reports it), dialect, or a key that is no option (naming it).
 */
export function buildToolPrompt(tools: ReadonlyArray<PromptToolDefinition>, options: ToolPromptOptions | null = {}): string {
  if (options !== null && typeof options === 'object' && !Array.isArray(options)) refuseUnknownOptions(options, promptOptionKeys)
  const dialect = options?.dialect ?? 'dsml'
  const section = sectionRules(dialect, options?.variant)
  const list = promptTools(tools)
  // no tools, no format to learn: a model shown the markup with nothing to call could only misuse it
  if (list.length === 0) return '# Tools\n\nYou have no tools in this conversation: do not write any tool-call markup.'
  const listed = list.map((t) => JSON.stringify(t))
  return [section(), '', '## Available tools', '', 'One JSON object per line: the name, what the tool does, and its parameters as JSON Schema.', '', ...listed].join('\n')
}
