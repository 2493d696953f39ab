/**
 * The `quoted` option of the adapters: the texts whose tool-call blocks are
 * examples. Callers pass what they have at hand, the request's own
 * conversation, so each adapter does not have to dig out the user's words.
 */
import { readOption, ToolsieveError } from '../errors.js'

/**
 * A message of a conversation, as the stacks write them: OpenAI chat
 * (`{ role, content: string | [{ type: 'text', text }] }`), Responses input
 * items (`{ type: 'message', role, content: [{ type: 'input_text', text }] }`),
 * Anthropic messages and AI SDK prompt messages (`[{ type: 'text', text }]`).
 * Only `role` and the text in `content` are read.
 */
export interface QuotedMessage {
  // `unknown`, not `string`: the SDKs' item unions have `null` and item types this reads nothing of
  role?: unknown
  content?: unknown
  type?: unknown
}

/**
 * What `quoted` takes: a text, or a list of texts and messages. Every text is
 * used; of the messages, only the last user message that has text (the
 * question the answer responds to: a user message holding only tool results
 * is skipped). A Responses `input` fits as it is.
 */
export type QuotedSource = string | ReadonlyArray<string | QuotedMessage>

// part types that hold what the user wrote; tool results and images are not quotes
const textParts = new Set(['text', 'input_text'])

/** The text of a message's `content`: a string, or its text parts joined by line breaks. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  const texts: string[] = []
  for (const part of content) {
    if (typeof part === 'string') texts.push(part)
    else if (part !== null && typeof part === 'object') {
      const p = part as { type?: unknown; text?: unknown }
      if (typeof p.text === 'string' && (p.type === undefined || textParts.has(p.type as string))) texts.push(p.text)
    }
  }
  return texts.join('\n')
}

const holeMark = Symbol('hole')

/**
 * The texts to hand to the core's `quoted` option, or `undefined` when none
 * was given. `field` is the name the caller gave the list (the AI SDK
 * middleware reads the call's `prompt`), so an error names what they wrote.
 *
 * @throws {ToolsieveError} `invalid-option` (`field` `quoted` or `quoted[i]`)
 *   for anything but a string, or a list of strings and message objects; an
 *   entry that cannot be read (a revoked proxy, a getter that throws) is no
 *   message object.
 */
export function quotedTexts(source: unknown, field = 'quoted'): string[] | undefined {
  if (source === undefined || source === null) return undefined
  if (typeof source === 'string') return [source]
  if (!readOption(field, () => Array.isArray(source))) {
    throw new ToolsieveError('invalid-option', `${field}: must be a string, or an array of strings and messages`, field)
  }
  const list = source as ReadonlyArray<unknown>
  // a proxy's `length` is whatever its trap says: made a number where a throw is still the caller's field
  const length = readOption(field, () => Number(list.length))
  const texts: string[] = []
  let lastUser: string | undefined
  for (let i = 0; i < length; i++) {
    const at = `${field}[${i}]`
    // a hole is skipped, as `forEach` skipped it
    const item = readOption(at, () => (i in list ? list[i] : holeMark))
    if (item === holeMark) continue
    if (typeof item === 'string') {
      texts.push(item)
      continue
    }
    if (item === null || typeof item !== 'object' || readOption(at, () => Array.isArray(item))) {
      throw new ToolsieveError('invalid-option', `${at}: must be a string or a message object`, at)
    }
    const text = readOption(at, () => {
      const m = item as QuotedMessage
      return m.role === 'user' ? textOf(m.content) : ''
    })
    if (text !== '') lastUser = text
  }
  if (lastUser !== undefined) texts.push(lastUser)
  return texts
}
