/**
 * `transformParams`: a call for a model with tools, rewritten for a model
 * that only reads and writes text. The function tools go into the system
 * prompt, the conversation's earlier tool calls become the DSML the model is
 * asked to write, and tool results become user text, as DeepSeek's own
 * encoder writes them (`<tool_result>…</tool_result>` in the user turn, in
 * the order of the calls).
 */
import { keyText } from '../adapters/index.js'
import { formatToolCalls } from '../format/format.js'
import { buildToolPrompt } from '../prompt/tool-prompt.js'
import { isPlainObject } from '../values/own.js'
import type { CallOptionsLike, CallToolLike, PromptMessageLike, PromptPartLike, ToolChoiceLike } from './types.js'

type Part = PromptPartLike & Record<string, unknown>
type Message = PromptMessageLike & Record<string, unknown>

/** The tool section for the call's function tools and tool choice; `undefined` when there is nothing to call. */
export function toolSection(tools: ReadonlyArray<CallToolLike> | undefined, choice: ToolChoiceLike | undefined, dialect: string): string | undefined {
  if (choice?.type === 'none') return undefined
  let functions = (tools ?? []).filter((t) => t.type === 'function')
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

/**
 * A value that should be text, as text: a string as it is, another
 * primitive as `String` writes it, an object as its JSON. An object may
 * carry `toString` and `valueOf` as data (`{"toString": 0}` from stored or
 * sent JSON): turning it into a string would throw a `TypeError`.
 */
function asText(v: unknown): string {
  if (typeof v !== 'object' || v === null) return String(v)
  try {
    return JSON.stringify(v) ?? ''
  } catch {
    // a cycle, a bigint: JSON cannot write it either
    return keyText(v)
  }
}

/** A tool result's output as text: the value of text outputs, JSON of the others, the parts' text of `content`. */
export function outputText(output: unknown): string {
  if (!isPlainObject(output)) return typeof output === 'string' ? output : (JSON.stringify(output) ?? '')
  const value = output.value
  switch (output.type) {
    case 'text':
      return asText(value)
    case 'error-text':
      return `Error: ${asText(value)}`
    case 'json':
      return JSON.stringify(value) ?? 'null'
    case 'error-json':
      return `Error: ${JSON.stringify(value) ?? 'null'}`
    case 'execution-denied':
      return `The tool call was denied${typeof output.reason === 'string' ? `: ${output.reason}` : '.'}`
    case 'content':
      return Array.isArray(value) ? value.map((p: Part) => (p.type === 'text' ? asText(p.text) : `[${asText(p.type)}${typeof p.mediaType === 'string' ? ` ${p.mediaType}` : ''}]`)).join('\n') : ''
    default:
      return JSON.stringify(output) ?? ''
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
    if (last !== undefined && last.type === 'text' && last.providerOptions === undefined && (typeof last.text === 'string' || last.text === undefined || last.text === null)) {
      out[out.length - 1] = { ...last, text: `${last.text ?? ''}\n\n${text}` }
    } else out.push({ type: 'text', text })
  }
  const flush = () => {
    if (calls.length > 0) addText(formatToolCalls(calls.map(callOf), dialect === 'dsml' || dialect === 'xml' ? { spelling: dialect } : { dialect }))
    calls = []
  }
  for (const part of parts) {
    if (part.type === 'tool-call') calls.push(part)
    else if (part.type === 'tool-result') {
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
  const results = parts.filter((p) => p.type === 'tool-result')
  if (results.length === 0) return undefined
  return { role: 'user', content: [{ type: 'text', text: results.map(resultText).join('\n') }] }
}

/** The prompt with tool turns rewritten, consecutive user turns merged (a tool turn next to a user turn), and the tool section in the system prompt. */
export function rewritePrompt(prompt: ReadonlyArray<PromptMessageLike>, section: string | undefined, dialect: string): Message[] {
  const out: Message[] = []
  for (const m of prompt as ReadonlyArray<Message>) {
    let next: Message | undefined = m
    if (m.role === 'assistant' && Array.isArray(m.content)) next = { ...m, content: assistantContent(m.content, dialect) }
    else if (m.role === 'tool' && Array.isArray(m.content)) next = toolTurn(m.content)
    if (next === undefined) continue
    const last = out[out.length - 1]
    if (next.role === 'user' && last !== undefined && last.role === 'user' && Array.isArray(last.content) && Array.isArray(next.content)) {
      out[out.length - 1] = { ...last, content: [...last.content, ...next.content] }
    } else out.push(next)
  }
  if (section === undefined) return out
  // the first system message gets the section, as many providers take one system prompt only
  const first = out[0]
  if (first !== undefined && first.role === 'system' && typeof first.content === 'string') out[0] = { ...first, content: `${first.content}\n\n${section}` }
  else out.unshift({ role: 'system', content: section })
  return out
}

/**
 * The tools left for the provider (its own provider tools) and the tool
 * choice that still makes sense for them: the function tools are in the
 * prompt now.
 */
function remainingTools(params: CallOptionsLike): Pick<CallOptionsLike, 'tools' | 'toolChoice'> {
  const provider = (params.tools ?? []).filter((t) => t.type !== 'function')
  if (provider.length === 0) return { tools: undefined, toolChoice: undefined }
  const choice = params.toolChoice
  const keep = choice === undefined || choice.type === 'auto' || choice.type === 'none' || (choice.type === 'tool' && provider.some((t) => t.name === choice.toolName))
  return { tools: provider, toolChoice: keep ? choice : { type: 'auto' } }
}

/** The rewritten params and the tool section that went into them (`undefined` when there was none). */
export function transformCall<P extends CallOptionsLike>(params: P, dialect: string): { params: P; section: string | undefined } {
  const section = toolSection(params.tools, params.toolChoice, dialect)
  return { params: { ...params, prompt: rewritePrompt(params.prompt, section, dialect), ...remainingTools(params) }, section }
}
