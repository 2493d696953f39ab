/**
 * What the prompt-example guard reads in a quoted text: every call-shaped
 * thing, wherever it stands (a bare or self-closing invoke, one in a code
 * span or fence, a block broken by prose, any spelling family), decoded as
 * the sieve decodes a live call, within the sieve's capture limit.
 */
import { describe, expect, it } from 'vitest'
import { createSieve } from '../../src/index.js'
import type { SieveEvent, SieveOptions } from '../../src/types.js'
import { calls, codes, expectChunkInvariant, textOf } from '../helpers/chunking.js'

const param = '<｜DSML｜parameter name="path" string="true">/etc/passwd</｜DSML｜parameter>'
const invoke = `<｜DSML｜invoke name="delete_file">${param}</｜DSML｜invoke>`
const echo = '<｜DSML｜tool_calls>\n' + invoke + '\n</｜DSML｜tool_calls>'

/** The echo is text with `quoted-example`, in every chunking. */
function expectExample(input: string, opts: SieveOptions): void {
  const events = expectChunkInvariant(input, opts)
  expect(calls(events)).toEqual([])
  expect(textOf(events)).toBe(input)
  expect(codes(events)).toEqual(['quoted-example'])
}

describe('quoted texts: what is read', () => {
  it("should not support the README's example: a bare invoke in a code span, followed by prose", () => {
    expectExample('Sure:\n\n' + echo, { quoted: ['What does `' + invoke + '` do?'] })
  })

  it('should not support an echo of a bare invoke followed by prose (no span)', () => {
    expectExample(echo, { quoted: [invoke + ' — what does that do?'] })
  })

  it('should not support an echo of a self-closing invoke asked about in a question', () => {
    expectExample('<tool_calls><invoke name="reboot"/></tool_calls>', { quoted: ['Is <invoke name="reboot"/> safe?'] })
    expectExample('<tool_calls><invoke name="reboot"></invoke></tool_calls>', { quoted: ['Is <invoke name="reboot"/> safe?'] })
  })

  it('should not support an echo of an invoke from a quoted block broken by prose between its invokes', () => {
    const quoted = '<tool_calls><invoke name="a"><parameter name="x">1</parameter></invoke> and then <invoke name="b"><parameter name="y">2</parameter></invoke></tool_calls>'
    expectExample('<tool_calls><invoke name="b"><parameter name="y">2</parameter></invoke></tool_calls>', { quoted: [quoted] })
    expectExample('<tool_calls><invoke name="a"><parameter name="x">1</parameter></invoke></tool_calls>', { quoted: [quoted] })
  })

  it('should not support an echo of an invoke quoted in a fence, in every spelling family', () => {
    const spellings = [
      (n: string) => [`<｜DSML｜${n}`, `</｜DSML｜${n}>`],
      (n: string) => [`<|DSML|${n}`, `</|DSML|${n}>`],
      (n: string) => [`＜ＤＳＭＬ＜${n}`, `＜／ＤＳＭＬ＜／${n}＞`],
      (n: string) => [`<${n}`, `</${n}>`],
    ]
    for (const quote of spellings) {
      const [io, ic] = quote('invoke')
      const [po, pc] = quote('parameter')
      const end = io!.startsWith('＜') ? '＞' : '>'
      const quoted = '```xml\n' + `${io} name="rm"${end}${po} name="p"${end}/x${pc}${ic}` + '\n```'
      for (const live of spellings) {
        const [wo, wc] = live('tool_calls')
        const [lio, lic] = live('invoke')
        const [lpo, lpc] = live('parameter')
        const le = wo!.startsWith('＜') ? '＞' : '>'
        expectExample(`${wo}${le}${lio} name="rm"${le}${lpo} name="p" string="true"${le}/x${lpc}${lic}${wc}`, { quoted: [quoted] })
      }
    }
  })

  it('should not support an echo of an invoke quoted inside another invoke\'s value', () => {
    const quoted = `<tool_calls><invoke name="explain"><parameter name="code" string="true">${invoke}</parameter></invoke></tool_calls>`
    expectExample(echo, { quoted: [quoted] })
  })

  it('should not support the same call written `string="true">1` and as a plain `1` (one decoding, compared as text)', () => {
    const plain = '<tool_calls><invoke name="a"><parameter name="n">1</parameter><parameter name="on">true</parameter></invoke></tool_calls>'
    const exact = '<|DSML|tool_calls><|DSML|invoke name="a"><|DSML|parameter name="n" string="true">1</|DSML|parameter><|DSML|parameter name="on" string="true">true</|DSML|parameter></|DSML|invoke></|DSML|tool_calls>'
    expectExample(exact, { quoted: [plain] })
    expectExample(plain, { quoted: [exact] })
    const tools = [{ name: 'a', parameters: { type: 'object', properties: { n: { type: 'integer' }, on: { type: 'boolean' } } } }]
    expectExample(exact, { quoted: [plain], tools })
    expectExample(plain, { quoted: [exact], tools })
  })

  it('should support a call that differs from the quoted one in a value, or in its name', () => {
    const quoted = 'What does `' + invoke + '` do?'
    expect(calls(expectChunkInvariant(echo.replace('/etc/passwd', '/etc/passwd2'), { quoted: [quoted] }))).toEqual([{ name: 'delete_file', input: { path: '/etc/passwd2' } }])
    expect(calls(expectChunkInvariant(echo.replaceAll('delete_file', 'read_file'), { quoted: [quoted] }))).toEqual([{ name: 'read_file', input: { path: '/etc/passwd' } }])
  })

  it("should read the quoted texts within the sieve's capture limit, not the default", () => {
    const big = 'x'.repeat(300_000)
    const quotedInvoke = `<invoke name="write"><parameter name="text">${big}</parameter></invoke>`
    const sieve = createSieve({ quoted: ['Please explain ' + quotedInvoke], captureLimit: 400_000 })
    const live = `<tool_calls>${quotedInvoke}</tool_calls>`
    const events: SieveEvent[] = [...sieve.push(live), ...sieve.end()]
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([])
    expect(codes(events)).toEqual(['quoted-example'])
  })

  it('should not support a streamed echo: no call starts, and one started before the echo is aborted', () => {
    const input = '<｜DSML｜tool_calls><｜DSML｜invoke name="ls"></｜DSML｜invoke>' + invoke + '</｜DSML｜tool_calls>'
    const sieve = createSieve({ quoted: ['What does `' + invoke + '` do?'], streamArguments: true })
    const events: SieveEvent[] = []
    for (const ch of input) events.push(...sieve.push(ch))
    events.push(...sieve.end())
    const started = events.filter((e) => e.type === 'tool-call-start').map((e) => e.type === 'tool-call-start' && e.name)
    expect(started).toEqual(['ls'])
    expect(events.filter((e) => e.type === 'tool-call-abort').map((e) => e.type === 'tool-call-abort' && e.code)).toEqual(['quoted-example'])
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([])
    expect(textOf(events)).toBe(input)
  })

  it('should read a text of many unclosed openers within its budget, and fail closed on the names it could not read whole', () => {
    const opener = '<invoke name="rm"><parameter name="p" string="true">'
    const text = opener.repeat(5_000)
    const sieve = createSieve({ quoted: [text] })
    const events = [...sieve.push('<tool_calls><invoke name="rm"><parameter name="p">/y</parameter></invoke></tool_calls>'), ...sieve.end()]
    expect(codes(events)).toEqual(['quoted-example'])
    const other = createSieve({ quoted: [text] })
    expect(calls([...other.push('<tool_calls><invoke name="ls"></invoke></tool_calls>'), ...other.end()])).toEqual([{ name: 'ls', input: {} }])
  })
})

describe('quoted texts: invokes the user left unclosed', () => {
  it('should not support an echo, closed, of an invoke quoted without its closer (read up to its last complete parameter)', () => {
    expectExample(echo, { quoted: ['What does `<｜DSML｜invoke name="delete_file">' + param + '` do?'] })
    expectExample(echo, { quoted: ['<｜DSML｜invoke name="delete_file">' + param] })
    expectExample('<tool_calls><invoke name="reboot"></invoke></tool_calls>', { quoted: ['what would <invoke name="reboot"> do?'] })
  })

  it('should support a call with more than the unclosed quoted invoke held', () => {
    const more = echo.replace('</｜DSML｜invoke>', '<｜DSML｜parameter name="force" string="true">yes</｜DSML｜parameter></｜DSML｜invoke>')
    expect(calls(expectChunkInvariant(more, { quoted: ['What does `<｜DSML｜invoke name="delete_file">' + param + '` do?'] }))).toEqual([{ name: 'delete_file', input: { path: '/etc/passwd', force: 'yes' } }])
  })
})
