/** The examples of `toolsieve/anthropic` and `toolsieve/stream` run as a user runs them (tsx, the package by name) and print what the README says. */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

function example(name: string): string[] {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `examples/${name}`], { cwd: root, encoding: 'utf8', timeout: 60_000 })
  expect(r.status, r.stderr).toBe(0)
  return r.stdout.split('\n').filter(Boolean)
}

describe('the adapter examples', () => {
  it('should support the Anthropic stream example: a clean text block, the call as a tool_use block, stop_reason tool_use', () => {
    expect(example('anthropic-stream.ts')).toEqual(['start 0 text ', 'text "Checking."', 'start 1 tool_use get_weather', 'input {"city":"Paris"}', 'stop_reason tool_use'])
  })

  it('should support the web stream example: the text, then the call', () => {
    expect(example('web-stream.ts')).toEqual(['text "Let me read it.\\n\\n"', 'call read_file {"path":"src/main.rs"}'])
  })
})
