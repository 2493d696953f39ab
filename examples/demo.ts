/**
 * `npm run demo`: stream a bundled DeepSeek-style answer through the sieve in
 * token-sized chunks (1–12 characters, seeded) and print what comes out:
 * text as it arrives, each tool call as a marked line, diagnostics, and a
 * summary. The fenced example and the inline tag mentions stay text.
 */
import { readFileSync } from 'node:fs'
import { createSieve } from 'toolsieve'
import type { SieveEvent } from 'toolsieve'

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

let textChars = 0
let calls = 0
let diagnostics = 0
let atLineStart = true

/** Marked lines start on a fresh line so they never run into streamed text. */
function line(s: string): void {
  process.stdout.write(`${atLineStart ? '' : '\n'}${s}\n`)
  atLineStart = true
}

function show(events: SieveEvent[]): void {
  for (const event of events) {
    switch (event.type) {
      case 'text':
        process.stdout.write(event.text)
        textChars += event.text.length
        if (event.text.length > 0) atLineStart = event.text.endsWith('\n')
        break
      case 'tool-call':
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

const chunks = tokenChunks(transcript, 42)
const sieve = createSieve()
for (const chunk of chunks) show(sieve.push(chunk))
show(sieve.end())

line(
  paint('2', `— ${transcript.length} chars in ${chunks.length} chunks → ${textChars} chars of text, ` +
    `${calls} tool call${calls === 1 ? '' : 's'}, ${diagnostics} diagnostic${diagnostics === 1 ? '' : 's'}`),
)
