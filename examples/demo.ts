/**
 * `npm run demo`: stream a bundled DeepSeek-style answer (examples/sample-transcript.md)
 * through the sieve in token-sized chunks (1–12 characters, seeded) and print
 * what comes out: the reasoning, the text as it arrives, each tool call and
 * each diagnostic as a marked line, and a summary. The fenced example and the
 * inline tag mentions stay text; a block closed by the wrong tag goes out as
 * text with a `malformed-block` diagnostic. Then the same chunks, as OpenAI
 * chat completion chunks, go through `sieveChatStream` from toolsieve/openai,
 * and the demo prints what an OpenAI client would see.
 */
import { readFileSync } from 'node:fs'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { createSieve } from 'toolsieve'
import type { SieveEvent } from 'toolsieve'
import { sieveChatStream } from 'toolsieve/openai'

const transcript = readFileSync(new URL('./sample-transcript.md', import.meta.url), 'utf8')

/** A tiny seeded chunker (mulberry32), so every run splits the same way. */
function tokenChunks(text: string, seed: number): string[] {
  let a = seed >>> 0
  const random = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = Math.imul(a ^ (a >>> 15), a | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const chunks: string[] = []
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(random() * 12)
    chunks.push(text.slice(i, i + n))
    i += n
  }
  return chunks
}

const color = process.stdout.isTTY === true
const paint = (code: string, s: string): string => (color ? `\u001b[${code}m${s}\u001b[0m` : s)
const shorten = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}… (${s.length} chars)`)
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

let atLineStart = true
let afterMark = false

/** Marked lines start on a fresh line so they never run into streamed text. */
function line(s: string): void {
  process.stdout.write(`${atLineStart ? '' : '\n'}${s}\n`)
  atLineStart = true
  afterMark = true
}

/** Streamed text; the line breaks right after a marked line are not shown again (the mark ended the line). */
function write(s: string, style = ''): void {
  const shown = afterMark ? s.replace(/^\n+/, '') : s
  if (shown.length === 0) return
  process.stdout.write(style === '' ? shown : paint(style, shown))
  atLineStart = shown.endsWith('\n')
  afterMark = false
}

const chunks = tokenChunks(transcript, 42)

// 1. The sieve itself: every event as it comes.
line(paint('1', `── createSieve: ${transcript.length} chars in ${chunks.length} token-sized chunks ──`))
let textChars = 0
let reasoningChars = 0
let calls = 0
let diagnostics = 0
let output = '' // text, reasoning, tags and call markup in order: the input again, nothing lost

function show(events: SieveEvent[]): void {
  for (const event of events) {
    switch (event.type) {
      case 'reasoning-start':
        output += event.raw
        line(paint('2', '┌ reasoning'))
        break
      case 'reasoning':
        output += event.text
        reasoningChars += event.text.length
        write(event.text, '2')
        break
      case 'reasoning-end':
        output += event.raw
        line(paint('2', '└ end of reasoning'))
        break
      case 'text':
        output += event.text
        textChars += event.text.length
        write(event.text)
        break
      case 'tool-call':
        output += event.raw
        calls++
        line(paint('1;32', `▶ tool-call ${event.name} ${shorten(event.arguments, 160)}`))
        break
      case 'diagnostic':
        diagnostics++
        line(paint('1;33', `⚠ diagnostic ${event.code} at ${event.span.start}-${event.span.end}: ${event.message}`))
        break
    }
  }
}

const sieve = createSieve()
for (const chunk of chunks) show(sieve.push(chunk))
show(sieve.end())

line(
  paint('2', `— ${textChars} chars of text, ${reasoningChars} of reasoning, ${plural(calls, 'tool call')}, ` +
    `${plural(diagnostics, 'diagnostic')}; every input character out once: ${output === transcript ? 'yes' : 'NO'}`),
)

// 2. The same chunks as an OpenAI chat completion stream whose content leaked the markup.
line('')
line(paint('1', '── the same chunks through sieveChatStream (toolsieve/openai): what an OpenAI client sees ──'))

const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk => ({
  id: 'chatcmpl-demo', object: 'chat.completion.chunk', created: 0, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finish }],
})

async function* upstream(): AsyncIterable<ChatCompletionChunk> {
  yield chunk({ role: 'assistant', content: '' })
  for (const piece of chunks) yield chunk({ content: piece })
  yield chunk({}, 'stop')
}

let content = ''
let reasoningContent = ''
let finish: string | null = null
const toolCalls: { name: string; arguments: string }[] = []
for await (const out of sieveChatStream(upstream(), { onDiagnostic: (d) => line(paint('1;33', `⚠ onDiagnostic ${d.code}`)) })) {
  const choice = out.choices[0]
  if (choice === undefined) continue
  content += choice.delta.content ?? ''
  reasoningContent += choice.delta.reasoning_content ?? ''
  for (const call of choice.delta.tool_calls ?? []) {
    const slot = (toolCalls[call.index] ??= { name: '', arguments: '' })
    slot.name += call.function?.name ?? ''
    slot.arguments += call.function?.arguments ?? ''
  }
  finish = choice.finish_reason ?? finish
}

line(`delta.reasoning_content: ${JSON.stringify(shorten(reasoningContent.trim(), 60))}`)
line('delta.content:')
for (const text of content.trim().split('\n')) line(paint('2', '│ ') + text)
toolCalls.forEach((call, i) => line(paint('1;32', `delta.tool_calls[${i}]: ${call.name} ${shorten(call.arguments, 120)}`)))
line(`finish_reason: ${finish}`)
