/**
 * The examples in `examples/` run as a user runs them (tsx, importing the
 * package by name) and print what the README says they print.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../', import.meta.url))

function example(name: string): string {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `examples/${name}`], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout
}

describe('the examples', () => {
  it('should support the quick start: the text, then the call', () => {
    expect(example('quick-start.ts')).toBe('Let me read it.\n\ncall read_file {"path":"src/main.rs"}\n')
  })

  it('should support the OpenAI stream example: clean content, the call as tool_calls, finish tool_calls', () => {
    expect(example('openai-stream.ts').split('\n').filter(Boolean)).toEqual([
      'content "Checking."',
      'tool_call 0 get_weather ',
      'tool_call 0  {"city":"Paris"}',
      'finish tool_calls',
    ])
  })

  it('should support the custom spelling example: its own frame and the default ones', () => {
    expect(example('custom-spelling.ts')).toBe('"Sure.\\n" get_weather {"city":"Paris"}\nping\n')
  })

  it('should support the demo: reasoning, a removed block, a fenced example, a diagnostic, and the OpenAI adapter', () => {
    const out = example('demo.ts')
    const [sieve = '', adapter = ''] = out.split('── the same chunks through sieveChatStream')
    // the sieve: reasoning apart, the fenced example kept, the broken block as text with its code, two calls, nothing lost
    expect(sieve).toMatch(/┌ reasoning\nThe user says the app crashes[^\n]*\n└ end of reasoning\n/)
    expect(sieve).toContain('```xml\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="delete_file">')
    expect(sieve).toMatch(/⚠ diagnostic malformed-block at \d+-\d+: /)
    expect(sieve).toMatch(/▶ tool-call read_file \{"path":"src\/config.ts"\}\n▶ tool-call write_file \{"path":"src\/config.ts","content":"import/)
    expect(sieve).not.toContain('<｜DSML｜invoke name="write_file">')
    expect(sieve).toMatch(/2 tool calls, 1 diagnostic; every input character out once: yes/)
    // the adapter: reasoning_content, content without the live block, the calls as tool_calls
    expect(adapter).toContain('⚠ onDiagnostic malformed-block')
    expect(adapter).toContain('delta.reasoning_content: "The user says')
    expect(adapter).toContain('│ <｜DSML｜invoke name="delete_file">')
    expect(adapter).toContain('│ 先读取当前文件确认内容，然后写入修改后的版本：')
    expect(adapter).not.toContain('invoke name="write_file"')
    expect(adapter).toMatch(/delta\.tool_calls\[0\]: read_file \{"path":"src\/config.ts"\}\ndelta\.tool_calls\[1\]: write_file \{"path":"src\/config.ts","content":/)
    expect(adapter).toMatch(/finish_reason: tool_calls\n$/)
  })
})
