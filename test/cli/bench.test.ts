/**
 * `toolsieve bench`, end to end in a child process, on the generated
 * transcript whose manifest says how many calls it holds; and memory that
 * stays bounded when the input grows (no timing is asserted anywhere).
 */
import { createWriteStream, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { once } from 'node:events'
import { beforeAll, describe, expect, it } from 'vitest'
import { cli, generated, tempDir, type Generated } from './run.js'

interface Summary {
  turns: number
  bytes: number
  jobs: number
  speedup: number
  peakRssMB: number
  files: { file: string; format: string; turns: number }[]
  chunkings: Record<string, { mbps: number; turns: number; calls: number; diagnostics: Record<string, number> }>
  slowest: { where: string; ms: number }[]
}

let gen: Generated
beforeAll(() => {
  gen = generated()
})

/** A JSONL file of `mb` MB: prose turns (the fast path), with a real block every 500 turns. */
async function bigJsonl(mb: number): Promise<{ file: string; calls: number; turns: number }> {
  const file = join(tempDir(), `big-${mb}.jsonl`)
  const out = createWriteStream(file)
  const prose = 'The build passes now; the remaining warning is unrelated, and nothing else in the module depends on it. '.repeat(20)
  const call = `Reading it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n<｜DSML｜parameter name="path" string="true">a.ts</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>`
  let bytes = 0
  let calls = 0
  let turns = 0
  for (let i = 0; bytes < mb * 1024 * 1024; i++, turns++) {
    const line = JSON.stringify({ text: i % 500 === 0 ? call : prose }) + '\n'
    if (i % 500 === 0) calls++
    bytes += line.length
    if (!out.write(line)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return { file, calls, turns }
}

describe('toolsieve bench', () => {
  it('should support --json: per chunking the turns, every call of the manifest and no diagnostic', async () => {
    const run = await cli(['bench', gen.transcript, '--json', '--jobs', '1'])
    expect(run.code).toBe(0)
    const s = JSON.parse(run.stdout) as Summary
    expect(Object.keys(s.chunkings).sort()).toEqual(['4096', 'token', 'whole'])
    for (const c of Object.values(s.chunkings)) {
      expect(c).toMatchObject({ turns: gen.turns.length, calls: gen.calls, diagnostics: {} })
      expect(c.mbps).toBeGreaterThan(0)
    }
    expect(s.files).toEqual([{ file: gen.transcript, format: 'jsonl', turns: gen.turns.length, bytes: s.bytes }])
    expect(s.slowest).toHaveLength(5)
    expect(s.jobs).toBe(1)
  })

  it('should support --jobs 2 and chosen chunkings: worker threads find the same calls and report a speed-up', async () => {
    const run = await cli(['bench', gen.transcript, gen.transcript, '--json', '--jobs', '2', '--chunk', '16', '--chunk', 'whole,input'])
    expect(run.code).toBe(0)
    const s = JSON.parse(run.stdout) as Summary
    expect(s.jobs).toBe(2)
    expect(s.turns).toBe(2 * gen.turns.length)
    expect(Object.keys(s.chunkings).sort()).toEqual(['16', 'input', 'whole'])
    for (const c of Object.values(s.chunkings)) expect(c.calls).toBe(2 * gen.calls)
    expect(s.speedup).toBeGreaterThan(0)
    // stderr is no terminal here: one line per file.
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`${gen.transcript}: ${gen.turns.length} turns`), expect.stringContaining(`${gen.transcript}: ${gen.turns.length} turns`)])
  })

  it('should support a table for people: chunkings, the slowest turns, peak memory, the speed-up', async () => {
    const run = await cli(['bench', gen.transcript, '--chunk', 'whole', '--jobs', '1', '--slowest', '2'])
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^chunking +MB\/s +calls +diagnostics$/m)
    expect(run.stdout).toMatch(new RegExp(`^whole +[\\d.]+ +${gen.calls} +none$`, 'm'))
    expect(run.stdout).toContain('peak memory (RSS)')
    expect(run.stdout).toContain('speed-up')
    expect(run.stdout).toMatch(/^CPU: [\d.]+ s, [\d.]+ cores busy on average/m)
    expect(run.stdout.match(/transcript\.jsonl:\d+/g)).toHaveLength(2)
  })

  it('should support a 128 MB JSONL under a 64 MB heap limit: the input is streamed, never held', async () => {
    const large = await bigJsonl(128)
    // Held whole, the file's text alone (128 MB, one byte per character) would not fit: V8 would abort with out of memory.
    const run = await cli(['bench', large.file, '--json', '--jobs', '1', '--chunk', 'whole'], '', { NODE_OPTIONS: '--max-old-space-size=64' })
    rmSync(large.file) // 128 MB: gone now rather than after the file's last test
    expect(run.stderr).not.toMatch(/out of memory/)
    expect(run.code).toBe(0)
    const s = JSON.parse(run.stdout) as Summary
    expect(s.turns).toBe(large.turns)
    expect(s.bytes).toBeGreaterThan(120 * 1024 * 1024)
    expect(s.chunkings.whole).toMatchObject({ calls: large.calls, diagnostics: {} })
  })

  it('should not support no files, a missing file, a bad --jobs or the same chunking twice: exit 2', async () => {
    for (const args of [['bench'], ['bench', join(tempDir(), 'nope.jsonl')], ['bench', gen.transcript, '--jobs', '0'], ['bench', gen.transcript, '--chunk', 'whole,whole']]) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })

  it('should not support more workers than turns: --jobs 16 on a one-turn file runs one', async () => {
    const file = join(tempDir(), 'one.txt')
    writeFileSync(file, 'Just prose, one turn.\n')
    const run = await cli(['bench', file, '--json', '--jobs', '16', '--chunk', 'whole'])
    expect(run.code).toBe(0)
    const s = JSON.parse(run.stdout) as Summary
    expect(s.jobs).toBe(1)
    expect(s.turns).toBe(1)
  })

  it('should not support more workers than cores: --jobs 999 runs at most the cores', async () => {
    const { availableParallelism } = await import('node:os')
    const run = await cli(['bench', gen.transcript, gen.transcript, '--json', '--jobs', '999', '--chunk', 'whole'])
    expect(run.code, run.stderr).toBe(0)
    const s = JSON.parse(run.stdout) as Summary
    expect(s.jobs).toBeGreaterThanOrEqual(1)
    expect(s.jobs).toBeLessThanOrEqual(availableParallelism())
    expect(s.chunkings.whole!.calls).toBe(2 * gen.calls)
  })

  it('should not support a flag value that looks like a flag: one line, exit 2', async () => {
    for (const args of [['bench', gen.transcript, '--chunk', '-1'], ['bench', gen.transcript, '--jobs', '-3'], ['parse', gen.transcript, '--chunk', '-1']]) {
      const run = await cli(args)
      expect(run.code, args.join(' ')).toBe(2)
      expect(run.stderr.trim().split('\n'), args.join(' ')).toEqual([expect.stringMatching(/^toolsieve (bench|parse): --(chunk|jobs) /)])
    }
  })

  it('should support --strict: a diagnostic in the transcript is exit 1', async () => {
    const run = await cli(['bench', '-', '--strict', '--chunk', 'whole', '--jobs', '1'], '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="x">\nprose')
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^whole +[\d.]+ +0 +malformed-block 1$/m)
  })
})
