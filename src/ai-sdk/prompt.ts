/**
 * `transformParams`: a call for a model with tools, rewritten for a model
 * that only reads and writes text. The function tools go into the system
 * prompt, the conversation's earlier tool calls become the DSML the model is
 * asked to write, and tool results become user text, as DeepSeek's own
 * encoder writes them (`<tool_result>…</tool_result>` in the user turn, in
 * the order of the calls).
 */
import { ToolsieveError } from '../errors.js'
import { formatToolCalls } from '../format/format.js'
import { buildToolPrompt } from '../prompt/tool-prompt.js'
import { isPlainObject } from '../values/own.js'
import type { CallOptionsLike, CallToolLike, PromptMessageLike, PromptPartLike, ToolChoiceLike } from './types.js'

type Part = PromptPartLike & Record<string, unknown>
type Message = PromptMessageLike & Record<string, unknown>

/** A function tool of the call; an entry that is no object is none, and stays with the provider's tools. */
const isFunctionTool = (t: unknown): t is CallToolLike => isPlainObject(t) && t.type === 'function'

/** The tool section for the call's function tools and tool choice; `undefined` when there is nothing to call. */
export function toolSection(tools: ReadonlyArray<CallToolLike> | undefined, choice: ToolChoiceLike | undefined, dialect: string): string | undefined {
  if (choice?.type === 'none') return undefined
  let functions = (tools ?? []).filter(isFunctionTool)
  if (choice?.type === 'tool') functions = functions.filter((t) => t.name === choice.toolName)
  if (functions.length === 0) return undefined
  const section = buildToolPrompt(
    functions.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> | undefined })),
    { dialect },
  )
  if (choice?.type === 'required') return `${section}\n\nIn this reply you must call at least one of these tools.`
  if (choice?.type === 'tool') return `${section}\n\nIn this reply you must call the tool ${choice.toolName}.`
  return section
}

/** A part's input as `formatToolCalls` takes it: the object, or JSON text of one; anything else is no arguments. */
function callOf(part: Part): { name: string; input?: Record<string, unknown>; arguments?: string } {
  const name = part.toolName ?? ''
  if (isPlainObject(part.input)) return { name, input: part.input }
  if (typeof part.input === 'string') {
    try {
      const parsed: unknown = JSON.parse(part.input)
      if (isPlainObject(parsed)) return { name, input: parsed }
    } catch {
      // not JSON: no arguments the model could have written
    }
  }
  return { name, input: {} }
}

/** What a value that cannot be read or written is called instead. */
const unreadable = (v: unknown): string => (typeof v === 'function' ? '[function]' : '[object]')

/**
 * `v` as JSON text, or `undefined` where JSON writes nothing (a function,
 * `undefined`). Never throws: a BigInt is written as a string of its digits
 * (JSON has no integer that wide, and the model reads digits either way), a
 * reference back to an object still being written as `"[cycle]"`, and a value
 * whose reading throws (a getter, a revoked Proxy, nesting too deep for the
 * stack) is named by `unreadable` as a whole.
 */
function jsonText(v: unknown): string | undefined {
  // the objects from the root to the one being written: only a reference back up is a cycle, a shared one is not
  const open: object[] = []
  try {
    return JSON.stringify(v, function (this: unknown, _key, x: unknown) {
      if (typeof x === 'bigint') return x.toString()
      if (x === null || typeof x !== 'object') return x
      while (open.length > 0 && open[open.length - 1] !== this) open.pop()
      if (open.includes(x)) return '[cycle]'
      open.push(x)
      return x
    })
  } catch {
    return unreadable(v)
  }
}

/**
 * A value that should be text, as text: a string as it is, another
 * primitive as `String` writes it, an object as its JSON. An object may
 * carry `toString` and `valueOf` as data (`{"toString": 0}` from stored or
 * sent JSON): turning it into a string would throw a `TypeError`, as it
 * would for a function given such a `toString`.
 */
function asText(v: unknown): string {
  if (typeof v === 'string') return v
  if (typeof v === 'object' && v !== null) return jsonText(v) ?? ''
  try {
    return String(v)
  } catch {
    return unreadable(v)
  }
}

/** A `content` output's part as text; an element that is no part (`null`, a number) says nothing and is left out. */
function contentPartText(p: unknown): string | undefined {
  if (!isPlainObject(p)) return undefined
  if (p.type === 'text') return asText(p.text)
  return `[${asText(p.type)}${typeof p.mediaType === 'string' ? ` ${p.mediaType}` : ''}]`
}

/**
 * A tool result's output as text: the value of text outputs, JSON of the
 * others, the parts' text of `content`. Never throws, whatever the output
 * holds: an output whose fields cannot be read is named, not written.
 */
export function outputText(output: unknown): string {
  try {
    return readOutput(output)
  } catch {
    // a getter or a Proxy in the output threw on reading a field
    return unreadable(output)
  }
}

function readOutput(output: unknown): string {
  if (!isPlainObject(output)) return typeof output === 'string' ? output : (jsonText(output) ?? '')
  const value = output.value
  switch (output.type) {
    case 'text':
      return asText(value)
    case 'error-text':
      return `Error: ${asText(value)}`
    case 'json':
      return jsonText(value) ?? 'null'
    case 'error-json':
      return `Error: ${jsonText(value) ?? 'null'}`
    case 'execution-denied':
      return `The tool call was denied${typeof output.reason === 'string' ? `: ${output.reason}` : '.'}`
    case 'content':
      return Array.isArray(value) ? value.flatMap((p: unknown) => contentPartText(p) ?? []).join('\n') : ''
    default:
      return jsonText(output) ?? ''
  }
}

const resultText = (part: Part) => `<tool_result>${outputText(part.output)}</tool_result>`

/** An assistant turn's parts with each run of tool calls (and tool results) written as text, joined to the text around it. */
function assistantContent(parts: ReadonlyArray<Part>, dialect: string): Part[] {
  const out: Part[] = []
  let calls: Part[] = []
  const addText = (text: string) => {
    const last = out[out.length - 1]
    // DeepSeek's encoder puts a block after the content and a blank line; a part whose text is not text stays as it came
    if (isPlainObject(last) && last.type === 'text' && last.providerOptions === undefined && (typeof last.text === 'string' || last.text === undefined || last.text === null)) {
      out[out.length - 1] = { ...last, text: `${last.text ?? ''}\n\n${text}` }
    } else out.push({ type: 'text', text })
  }
  const flush = () => {
    if (calls.length > 0) addText(formatToolCalls(calls.map(callOf), dialect === 'dsml' || dialect === 'xml' ? { spelling: dialect } : { dialect }))
    calls = []
  }
  for (const part of parts) {
    // an element that is no part (`null`) has no type, and stays as it came
    const type = isPlainObject(part) ? part.type : undefined
    if (type === 'tool-call') calls.push(part)
    else if (type === 'tool-result') {
      flush()
      addText(resultText(part))
    } else {
      flush()
      out.push(part)
    }
  }
  flush()
  return out
}

/** A tool turn's results as the user turn DeepSeek's encoder writes; approval responses are the SDK's business and go. */
function toolTurn(parts: ReadonlyArray<Part>): Message | undefined {
  const results = parts.filter((p) => isPlainObject(p) && p.type === 'tool-result')
  if (results.length === 0) return undefined
  return { role: 'user', content: [{ type: 'text', text: results.map(resultText).join('\n') }] }
}

/**
 * The prompt with tool turns rewritten, consecutive user turns merged (a tool
 * turn next to a user turn), and the tool section in the system prompt. A
 * message that is no object, or whose content is not a list of parts, stays
 * as it came, as does an assistant turn's part that is no object: the
 * provider judges them (a tool turn gives the model its results only).
 */
export function rewritePrompt(prompt: ReadonlyArray<PromptMessageLike>, section: string | undefined, dialect: string): Message[] {
  const out: Message[] = []
  for (const m of prompt as ReadonlyArray<Message>) {
    let next: Message = m
    if (isPlainObject(m) && m.role === 'assistant' && Array.isArray(m.content)) next = { ...m, content: assistantContent(m.content, dialect) }
    else if (isPlainObject(m) && m.role === 'tool' && Array.isArray(m.content)) {
      // a tool turn of approval responses only has nothing for the model
      const turn = toolTurn(m.content)
      if (turn === undefined) continue
      next = turn
    }
    const last = out[out.length - 1]
    if (isUserList(next) && isUserList(last)) {
      out[out.length - 1] = { ...last, content: [...last.content, ...next.content] }
    } else out.push(next)
  }
  if (section === undefined) return out
  // the first system message gets the section, as many providers take one system prompt only
  const first = out[0]
  if (isPlainObject(first) && first.role === 'system' && typeof first.content === 'string') out[0] = { ...first, content: `${first.content}\n\n${section}` }
  else out.unshift({ role: 'system', content: section })
  return out
}

/** A user message whose content is a list of parts, which the next such message can be merged into. */
const isUserList = (m: unknown): m is Message & { content: ReadonlyArray<PromptPartLike> } => isPlainObject(m) && m.role === 'user' && Array.isArray(m.content)

/**
 * The tools left for the provider (its own provider tools) and the tool
 * choice that still makes sense for them: the function tools are in the
 * prompt now.
 */
function remainingTools(params: CallOptionsLike): Pick<CallOptionsLike, 'tools' | 'toolChoice'> {
  const provider = (params.tools ?? []).filter((t) => !isFunctionTool(t))
  if (provider.length === 0) return { tools: undefined, toolChoice: undefined }
  const choice = params.toolChoice as ToolChoiceLike | null | undefined
  const keep = choice === undefined || choice?.type === 'auto' || choice?.type === 'none' || (choice?.type === 'tool' && provider.some((t) => (t as CallToolLike | null)?.name === choice.toolName))
  return { tools: provider, toolChoice: keep ? choice : { type: 'auto' } }
}

/**
 * The rewritten params and the tool section that went into them (`undefined`
 * when there was none). Never throws but for a tool the tool prompt refuses
 * (`ToolsieveError` `invalid-option` from {@link buildToolPrompt}): a prompt
 * or tools that are not lists are no call the AI SDK makes, and the params
 * pass as they came, native tools included, for the provider to refuse;
 * messages and parts of an unknown shape stay as they came.
 */
export function transformCall<P extends CallOptionsLike>(params: P, dialect: string): { params: P; section: string | undefined } {
  try {
    if (!Array.isArray(params.prompt) || (params.tools != null && !Array.isArray(params.tools))) return { params, section: undefined }
    const section = toolSection(params.tools, params.toolChoice, dialect)
    return { params: { ...params, prompt: rewritePrompt(params.prompt, section, dialect), ...remainingTools(params) }, section }
  } catch (e) {
    // params that throw when read (a revoked Proxy, a getter that throws) are no call the AI SDK makes: as they came
    if (e instanceof ToolsieveError) throw e
    return { params, section: undefined }
  }
}
