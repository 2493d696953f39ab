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

  it('should support the demo: calls found, examples kept as text', () => {
    const out = example('demo.ts')
    expect(out).toMatch(/2 tool calls, 0 diagnostics/)
    expect(out).toMatch(/▶ tool-call read_file \{"path":"src\/config.ts"\}/)
  })
})
