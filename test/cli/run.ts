/**
 * Runs the command line as users do, in a child process: `node --import tsx
 * src/cli/main.ts …` from the repository, with optional stdin. Also writes
 * the generated transcript the parse and bench specs read, and its manifest.
 * The temporary folders it makes are removed after the tests of the file that
 * imports it.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll } from 'vitest'
import { generateTurns, manifestJsonl, transcriptJsonl, type Turn } from '../../bench/transcripts.js'

export const root = fileURLToPath(new URL('../../', import.meta.url))
export const main = join(root, 'src/cli/main.ts')

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** `toolsieve …args`, resolved when the process exits. */
export function cli(args: readonly string[], stdin?: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], { cwd: root, env: { ...process.env, ...env } })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    child.stderr.on('data', (b: Buffer) => err.push(b))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }))
    child.stdin.end(stdin ?? '')
  })
}

// the folders this test file made (each file has its own copy of this module)
const made: string[] = []
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A fresh temporary folder, removed after the current test file's tests. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolsieve-cli-'))
  made.push(dir)
  return dir
}

export interface Generated {
  dir: string
  transcript: string
  manifest: string
  turns: Turn[]
  calls: number
}

/** `bench/transcripts.ts`'s seeded turns written as its command writes them: transcript.jsonl and manifest.jsonl. */
export function generated(size = 200 * 1024, seed = 18): Generated {
  const dir = tempDir()
  const turns = generateTurns({ seed, size, big: 0 })
  const transcript = join(dir, 'transcript.jsonl')
  const manifest = join(dir, 'manifest.jsonl')
  writeFileSync(transcript, transcriptJsonl(turns))
  writeFileSync(manifest, manifestJsonl(turns))
  return { dir, transcript, manifest, turns, calls: turns.reduce((n, t) => n + t.calls.length, 0) }
}

/** Non-empty lines of an output, each parsed as JSON. */
export function jsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as T)
}
