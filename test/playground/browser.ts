/**
 * What the playground's browser test needs around it: the page built into a
 * scratch folder by the same script as `npm run playground`, a static server
 * on 127.0.0.1, and the system's Chromium driven by playwright-core
 * (Playwright's own browser download does not run here; CI installs Debian's
 * `chromium`, see .ci/run).
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type BrowserContext } from 'playwright-core'
import { serveStatic } from '../../scripts/static-server.js'

export const root = fileURLToPath(new URL('../../', import.meta.url))

/** Where the test keeps its screenshot (gitignored). */
export const artifacts = join(root, 'test/playground/artifacts')

/** The browser: `CHROMIUM_PATH` when set, else Debian's package. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface Harness {
  url: string
  context: BrowserContext
  close(): Promise<void>
}

/** Runs `scripts/playground.ts --out-dir <dir>` (type check and build); rejects with its output when it fails. */
function build(outDir: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/playground.ts', '--out-dir', outDir], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.on('error', fail)
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`npm run playground failed (exit ${code}):\n${output}`))))
  })
}

/**
 * Builds the page, serves it and opens Chromium. Fails, naming the fix, when
 * Chromium is missing: a missing browser must not pass as a skipped test.
 */
export async function openPlayground(): Promise<Harness> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: the playground test needs a real browser. Install it (as root: apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH.`,
    )
  }
  const scratch = join(root, '.scratch', `playground-${process.pid}`)
  mkdirSync(scratch, { recursive: true })
  const outDir = join(scratch, 'dist')
  const profile = mkdtempSync(join(tmpdir(), 'toolsieve-chromium-'))
  let server: Server | undefined
  let context: BrowserContext | undefined
  const close = async (): Promise<void> => {
    await context?.close().catch(() => {})
    await new Promise<void>((done) => (server === undefined ? done() : server.close(() => done())))
    rmSync(profile, { recursive: true, force: true })
    rmSync(scratch, { recursive: true, force: true })
  }
  // The build and the browser's start are independent: do them at once.
  const [served, launched] = await Promise.allSettled([
    build(outDir).then(() => serveStatic(outDir)),
    chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args, viewport: { width: 1400, height: 1000 } }),
  ])
  if (served.status === 'fulfilled') server = served.value.server
  if (launched.status === 'fulfilled') context = launched.value
  if (served.status === 'rejected' || launched.status === 'rejected') {
    await close()
    throw served.status === 'rejected' ? served.reason : (launched as PromiseRejectedResult).reason
  }
  return { url: served.value.url, context: launched.value, close }
}
