/**
 * The prompt-example guard end to end, on every wire: the README's example
 * (a user asking what a `delete_file` invoke does), passed as `quoted` texts
 * or as the request's messages, with the sieve's own options beside it.
 * The adapters hand the guard everything it reads; what it records of a
 * quoted text is the core's (src/sieve).
 */
import { describe, expect, it } from 'vitest'
import { quotedTexts, resolveAdapterOptions } from '../../src/adapters/index.js'
import type { DiagnosticEvent, ErrorEvent } from '../../src/index.js'
import { awkward } from './stream-helpers.js'
import { wires, type WireOptions } from './wires.js'

const param = '<｜DSML｜parameter name="path" string="true">/etc/passwd</｜DSML｜parameter>'
const invoke = `<｜DSML｜invoke name="delete_file">${param}</｜DSML｜invoke>`
/** The README's question: the invoke in a code span, prose after it. */
const question = 'What does `' + invoke + '` do?'
/** A model answering it by writing the example out as a block, outside any code. */
const echo = 'Sure:\n\n<｜DSML｜tool_calls>\n' + invoke + '\n</｜DSML｜tool_calls>'
/** The request's messages, as OpenAI chat and Anthropic write them: the question is the last user message. */
const messages = [
  { role: 'system', content: 'You are careful.' },
  { role: 'user', content: [{ type: 'text', text: 'Hi.' }] },
  { role: 'assistant', content: 'Hello.' },
  { role: 'user', content: [{ type: 'text', text: question }] },
]

/** Runs the echo through a wire in two chunkings, collecting the diagnostics. */
async function echoed(read: (pieces: readonly string[], options?: WireOptions) => Promise<{ text: string; calls: string[] }>, options: WireOptions) {
  const out: Array<{ text: string; calls: string[]; codes: string[] }> = []
  for (const pieces of [[echo], awkward(echo)]) {
    const codes: string[] = []
    const onDiagnostic = (e: DiagnosticEvent | ErrorEvent) => void codes.push(e.code)
    const { text, calls } = await read(pieces, { ...options, onDiagnostic })
    out.push({ text, calls, codes })
  }
  return out
}

describe('quoted through the adapter layer', () => {
  it('should support the sieve\'s own options going with quoted: the core gets the texts and every option as given', () => {
    const resolved = resolveAdapterOptions({ quoted: messages, captureLimit: 4096, strict: false, onInvalid: 'emit', trimBlankLines: true })
    expect(resolved.sieve).toMatchObject({ quoted: [question], captureLimit: 4096, strict: false, onInvalid: 'emit' })
    expect(resolved.sieve).not.toHaveProperty('trimBlankLines')
    expect(quotedTexts(['a rule', ...messages])).toEqual(['a rule', question])
  })
})

for (const wire of wires) {
  describe(`the README's prompt example (${wire.name})`, () => {
    // needs the core's reading of every call-shaped thing in a quoted text (src/sieve): the invoke in the question is in a code span with prose after it
    it('should not support running the README example the user quoted: the echo is text with quoted-example (quoted texts, with captureLimit)', async () => {
      for (const run of await echoed((p, o) => wire.read(p, o), { quoted: [question], captureLimit: 4096 })) {
        expect(run).toEqual({ text: echo, calls: [], codes: ['quoted-example'] })
      }
    })

    it('should not support running it when quoted is the request\'s messages', async () => {
      for (const run of await echoed((p, o) => wire.read(p, o), { quoted: messages as never, captureLimit: 4096 })) {
        expect(run).toEqual({ text: echo, calls: [], codes: ['quoted-example'] })
      }
    })

    it('should support a call the user did not quote: another path runs', async () => {
      const other = echo.replace('/etc/passwd', '/tmp/scratch')
      for (const pieces of [[other], awkward(other)]) {
        expect(await wire.read(pieces, { quoted: [question], captureLimit: 4096 })).toMatchObject({ text: 'Sure:', calls: ['delete_file'] })
      }
    })
  })
}
