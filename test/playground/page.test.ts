/**
 * The playground in a real browser (headless Chromium): the page built by
 * `npm run playground`, a transcript pasted, each chunking chosen, and what
 * the page shows checked against what the library says of the same text.
 * Leaves a screenshot in test/playground/artifacts/ (gitignored).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultGrammar, parseToolCalls, validateGrammar } from '../../src/index.js'
import type { SieveEvent } from '../../src/index.js'
import { artifacts, openPlayground, type Harness } from './browser.js'

const example = [
  '<｜DSML｜tool_calls>',
  '<｜DSML｜invoke name="delete_file">',
  '<｜DSML｜parameter name="path" string="true">/</｜DSML｜parameter>',
  '</｜DSML｜invoke>',
  '</｜DSML｜tool_calls>',
].join('\n')
const block = [
  '<｜DSML｜tool_calls>',
  '<｜DSML｜invoke name="read_file">',
  '<｜DSML｜parameter name="path" string="true">src/config.ts</｜DSML｜parameter>',
  '</｜DSML｜invoke>',
  '</｜DSML｜tool_calls>',
].join('\n')
const transcript = `This is how a call looks, as an example:\n\n\`\`\`xml\n${example}\n\`\`\`\n\nNow reading the file:\n\n${block}\n`

let harness: Harness
let page: Page

beforeAll(async () => {
  harness = await openPlayground()
  page = await harness.context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(harness.url)
  await page.getByRole('status', { name: 'Summary' }).filter({ hasText: / calls? / }).waitFor({ timeout: 20_000 })
  expect(errors, 'errors in the page').toEqual([])
}, 60_000)

afterAll(async () => {
  await harness?.close()
})

/** Pastes the transcript, picks a chunking and runs. */
async function runWith(chunking: string, more: Record<string, string> = {}): Promise<void> {
  await page.getByLabel('Model output').fill(transcript)
  await page.getByLabel('Chunking', { exact: true }).selectOption(chunking)
  for (const [label, value] of Object.entries(more)) await page.getByLabel(label).fill(value)
  await page.getByRole('button', { name: 'Run' }).click()
}

const events = async (): Promise<SieveEvent[]> => JSON.parse((await page.getByLabel('Events (JSON)').textContent()) ?? '') as SieveEvent[]

describe('playground', () => {
  const expected = parseToolCalls(transcript)
  const call = expected.calls[0]!

  it('should know the library answer it is checked against', () => {
    expect(expected.calls.map((c) => [c.name, c.input])).toEqual([['read_file', { path: 'src/config.ts' }]])
    expect(call.raw).toBe(block)
  })

  for (const [chunking, more, pushes] of [
    ['whole', {}, 1],
    ['fixed', { 'Chunk size (UTF-16 units)': '7' }, Math.ceil(transcript.length / 7)],
    ['tokens', { Seed: '3', 'Longest token (UTF-16 units)': '5' }, undefined],
    ['units', {}, transcript.length],
  ] as const) {
    it(`should show one call, the example as text and the block's span, chunked ${chunking}`, async () => {
      await runWith(chunking, more)
      const summary = (await page.getByRole('status', { name: 'Summary' }).textContent()) ?? ''
      if (pushes !== undefined) expect(summary).toContain(`${pushes} ${pushes === 1 ? 'push' : 'pushes'}`)
      expect(summary).toContain('1 call')
      expect(summary).toContain('every input character came out once')

      const calls = page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem')
      await expect.poll(() => calls.count()).toBe(1)
      expect(await calls.first().locator('.call-name').textContent()).toBe('read_file')
      expect(JSON.parse((await page.getByLabel('Arguments of read_file').textContent()) ?? '')).toEqual({ path: 'src/config.ts' })

      const text = (await page.getByLabel('Text', { exact: true }).textContent()) ?? ''
      expect(text).toContain(`\`\`\`xml\n${example}\n\`\`\``)
      expect(text).not.toContain('read_file')

      const marks = page.locator('#spans mark[data-kind="tool-call"]')
      expect(await marks.count()).toBe(1)
      expect(await marks.first().textContent()).toBe(block)
      expect(await marks.first().getAttribute('data-start')).toBe(String(call.span.start))
      expect(await marks.first().getAttribute('data-end')).toBe(String(call.span.end))
      expect(await page.locator('#spans').textContent()).toBe(transcript)

      const shown = await events()
      const calls2 = shown.filter((e) => e.type === 'tool-call')
      expect(calls2.map((e) => [e.name, e.arguments, e.span])).toEqual([['read_file', call.arguments, call.span]])
      expect(shown.filter((e) => e.type === 'diagnostic')).toEqual([])
    })
  }

  it('should group the events by push when asked', async () => {
    await runWith('fixed', { 'Chunk size (UTF-16 units)': '50' })
    await page.getByLabel('Group by push').check()
    const grouped = JSON.parse((await page.getByLabel('Events (JSON)').textContent()) ?? '') as SieveEvent[][]
    expect(grouped).toHaveLength(Math.ceil(transcript.length / 50) + 1)
    expect(grouped.flat().filter((e) => e.type === 'tool-call')).toHaveLength(1)
    await page.getByLabel('Group by push').uncheck()
  })

  it('should show where each push began when asked, adding no text', async () => {
    await runWith('fixed', { 'Chunk size (UTF-16 units)': '50' })
    expect(await page.locator('#spans .cut').count()).toBe(0)
    await page.getByLabel('Show where each push began').check()
    expect(await page.locator('#spans .cut').count()).toBe(Math.ceil(transcript.length / 50) - 1)
    expect(await page.locator('#spans').textContent()).toBe(transcript)
    expect(await page.locator('#spans mark[data-kind="tool-call"]').textContent()).toBe(block)
    await page.getByLabel('Show where each push began').uncheck()
  })

  it('should show a diagnostic and mark its span', async () => {
    const broken = `Before.\n\n${block.replace('</｜DSML｜invoke>', '</｜DSML｜tool_calls>')}\n\nAfter.\n`
    const library = parseToolCalls(broken)
    expect(library.diagnostics.map((d) => d.code)).toEqual(['malformed-block'])
    await page.getByLabel('Model output').fill(broken)
    await page.getByLabel('Chunking', { exact: true }).selectOption('whole')
    await page.getByRole('button', { name: 'Run' }).click()
    const problems = page.getByRole('list', { name: 'Diagnostics' }).getByRole('listitem')
    expect(await problems.count()).toBe(1)
    expect(await problems.first().textContent()).toContain('malformed-block')
    const marked = await page.locator('#spans mark[data-kind="problem"]').allTextContents()
    const span = library.diagnostics[0]!.span
    expect(marked.join('')).toBe(broken.slice(span.start, span.end))
    expect(await page.locator('#spans mark[data-kind="tool-call"]').count()).toBe(0)
  })

  it("should show the library's error for an edited grammar, and run again once it is valid", async () => {
    await runWith('whole')
    const grammar = page.getByLabel('Grammar (JSON)')
    const json = JSON.parse((await grammar.inputValue()) ?? '') as Record<string, unknown>
    expect(validateGrammar(json)).toEqual(defaultGrammar)
    const edited = { ...json, roles: { ...(json.roles as object), invoke: [] } }
    const message = (() => {
      try {
        validateGrammar(edited)
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('the edited grammar should be invalid')
    })()
    await grammar.fill(JSON.stringify(edited, null, 2))
    await page.getByRole('button', { name: 'Run' }).click()
    const alert = page.getByRole('alert', { name: 'Grammar error' })
    expect(await alert.textContent()).toBe(`GrammarError (invalid-grammar): ${message}`)
    expect(await page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem').count()).toBe(0)

    await grammar.fill('{ "roles": ')
    await page.getByRole('button', { name: 'Run' }).click()
    expect(await alert.textContent()).toMatch(/^Grammar is not JSON: /)

    await page.getByRole('button', { name: "Reset grammar to the dialect's" }).click()
    // an empty alert is hidden, so out of the accessibility tree: read the element itself
    expect(await page.locator('#grammar-error').textContent()).toBe('')
    expect(await alert.count()).toBe(0)
    expect(await page.getByRole('list', { name: 'Tool calls' }).getByRole('listitem').count()).toBe(1)
  })

  it("should show the library's error for a bad option", async () => {
    await runWith('whole', { 'Capture limit in UTF-16 units (captureLimit; empty: the grammar\'s)': '2' })
    expect(await page.getByRole('alert', { name: 'Options error' }).textContent()).toMatch(/^ToolsieveError \(invalid-option\): captureLimit: must be at least/)
    await page.getByLabel("Capture limit in UTF-16 units (captureLimit; empty: the grammar's)").fill('')
    await page.getByRole('button', { name: 'Run' }).click()
    expect(await page.locator('#options-error').textContent()).toBe('')
    expect(await page.getByRole('alert', { name: 'Options error' }).count()).toBe(0)
  })

  it('should open a shared link with the same input, settings and calls', async () => {
    await runWith('fixed', { 'Chunk size (UTF-16 units)': '11' })
    await page.getByRole('button', { name: 'Copy a link to this input and settings' }).click()
    const link = await page.getByLabel('Link to this input and settings').inputValue()
    expect(link).toMatch(/#s=[\w-]+$/)
    const other = await harness.context.newPage()
    try {
      await other.goto(link)
      await other.getByRole('status', { name: 'Summary' }).filter({ hasText: / calls? / }).waitFor({ timeout: 20_000 })
      expect(await other.getByLabel('Model output').inputValue()).toBe(transcript)
      expect(await other.getByLabel('Chunking', { exact: true }).inputValue()).toBe('fixed')
      expect(await other.getByLabel('Chunk size (UTF-16 units)').inputValue()).toBe('11')
      expect(await other.getByRole('status', { name: 'Summary' }).textContent()).toContain(`${Math.ceil(transcript.length / 11)} pushes`)
      expect(await other.getByLabel('Arguments of read_file').textContent()).toBe(call.arguments)
    } finally {
      await other.close()
    }
  })

  it('should leave a screenshot of the page, with every kind of mark', async () => {
    // reasoning, a block closed by the wrong tag (text and a diagnostic), the example and the live block
    const broken = block.replace('</｜DSML｜invoke>', '</｜DSML｜tool_calls>')
    const everything = `<think>\nThe user wants the config.\n</think>\n\nFirst try:\n\n${broken}\n\n${transcript}`
    await page.getByLabel('Model output').fill(everything)
    await page.getByLabel('Chunking', { exact: true }).selectOption('tokens')
    await page.getByLabel('Seed').fill('42')
    await page.getByLabel('Show where each push began').check()
    await page.getByRole('button', { name: 'Run' }).click()
    const summary = (await page.getByRole('status', { name: 'Summary' }).textContent()) ?? ''
    expect(summary).toMatch(/ 1 call · 1 diagnostic · every input character came out once$/)
    for (const kind of ['reasoning', 'reasoning-tag', 'tool-call', 'problem']) expect(await page.locator(`#spans [data-kind="${kind}"]`).count(), kind).toBeGreaterThan(0)
    mkdirSync(artifacts, { recursive: true })
    const file = join(artifacts, 'playground.png')
    const png = await page.screenshot({ path: file, fullPage: true })
    expect(png.subarray(1, 4).toString()).toBe('PNG')
  })
})
