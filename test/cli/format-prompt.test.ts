/**
 * `toolsieve format` and `toolsieve prompt`, end to end in a child process:
 * what format writes reads back to the same calls, and prompt prints
 * buildToolPrompt's section for the tools file.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildToolPrompt, parseToolCalls } from '../../src/index.js'
import { cli, tempDir } from './run.js'

const calls = [
  { name: 'read_file', input: { path: 'src/a.ts', limit: 20 } },
  { id: 'call_1', type: 'function', function: { name: 'run_command', arguments: '{"command":"npm test"}' } },
]
const tools = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
]

describe('toolsieve format', () => {
  it('should support calls in the sieve\'s and OpenAI\'s shapes, written as DSML that reads back to them', async () => {
    const file = join(tempDir(), 'calls.json')
    writeFileSync(file, JSON.stringify(calls))
    const run = await cli(['format', file])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^<｜DSML｜tool_calls>\n/)
    expect(parseToolCalls(run.stdout).calls.map((c) => [c.name, c.input])).toEqual([
      ['read_file', { path: 'src/a.ts', limit: 20 }],
      ['run_command', { command: 'npm test' }],
    ])
  })

  it('should support --spelling xml, and an OpenAI message with tool_calls on stdin', async () => {
    const run = await cli(['format', '--spelling', 'xml'], JSON.stringify({ role: 'assistant', content: null, tool_calls: [calls[1]] }))
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^<tool_calls>\n<invoke name="run_command">/)
    expect(parseToolCalls(run.stdout).calls.map((c) => c.input)).toEqual([{ command: 'npm test' }])
  })

  it('should not support a spelling the grammar lacks or a file that is not JSON: one line, exit 2', async () => {
    for (const [args, stdin] of [[['format', '--spelling', 'klingon'], JSON.stringify(calls)], [['format'], '[{"name":']] as const) {
      const run = await cli(args, stdin)
      expect(run.code).toBe(2)
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^toolsieve format: /)])
    }
  })
})

describe('toolsieve prompt', () => {
  it('should support --tools: buildToolPrompt\'s section, DSML by default and XML with --dialect xml', async () => {
    const file = join(tempDir(), 'tools.json')
    writeFileSync(file, JSON.stringify({ model: 'deepseek-chat', tools }))
    const dsml = await cli(['prompt', '--tools', file])
    expect(dsml.code).toBe(0)
    expect(dsml.stdout).toBe(buildToolPrompt(tools as never) + '\n')
    const xml = await cli(['prompt', '--tools', file, '--dialect', 'xml'])
    expect(xml.stdout).toBe(buildToolPrompt(tools as never, { dialect: 'xml' }) + '\n')
    expect(xml.stdout).toContain('<tool_calls>')
  })

  it('should not support a missing --tools, a bad dialect or a tool without a name: exit 2', async () => {
    const file = join(tempDir(), 'bad.json')
    writeFileSync(file, JSON.stringify([{ type: 'function', function: {} }]))
    for (const args of [['prompt'], ['prompt', '--tools', file, '--dialect', 'yaml'], ['prompt', '--tools', file]]) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(/^toolsieve prompt: /)])
    }
  })
})
