/**
 * A bounded load test of `toolsieve proxy` on loopback (not part of `npm
 * test`): C concurrent streamed chat completions for D seconds, first
 * against the fake upstream alone, then through the proxy, each in its own
 * process (the proxy from the compiled package, `dist/`, as users run it).
 * Reports requests per second and the latency of a whole response (last
 * byte) and of its first byte, p50 and p99, and what the proxy adds.
 *
 *   tsx bench/proxy-load.ts [--concurrency 200] [--seconds 10] [--gap 5]
 *
 * `--gap` is the upstream's pause between chunks (ms), as a model's tokens
 * arrive; the answer is `bench/fake-upstream.ts`'s leaked block in 40-odd
 * chunks, so every response through the proxy must carry one rescued call.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import http from 'node:http'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import './lib.js'

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '10' },
    gap: { type: 'string', default: '5' },
  },
})
const concurrency = Number(values.concurrency)
const seconds = Number(values.seconds)
const root = fileURLToPath(new URL('..', import.meta.url))

/** Starts a child and resolves with the first URL it prints (stdout or stderr). */
function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  return new Promise((resolve, reject) => {
    let seen = ''
    const look = (b: Buffer): void => {
      seen += b.toString('utf8')
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(seen)
      if (m !== null) resolve({ child, url: m[1]! })
    }
    child.stdout!.on('data', look)
    child.stderr!.on('data', look)
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${seen}`)))
  })
}

interface Sample {
  ms: number
  firstByteMs: number
  ok: boolean
}

const body = JSON.stringify({
  model: 'deepseek-chat',
  stream: true,
  messages: [{ role: 'user', content: 'Read src/a.ts' }],
  tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } } } } }],
})

/** One streamed request, read to its end. `ok`: status 200, and (through the proxy) a rescued call in the body. */
function once(agent: http.Agent, url: string, expectCall: boolean): Promise<Sample> {
  const start = performance.now()
  return new Promise((resolve) => {
    const req = http.request(`${url}/v1/chat/completions`, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer sk-load' } })
    req.on('response', (res) => {
      let firstByteMs = -1
      const parts: Buffer[] = []
      res.on('data', (b: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - start
        parts.push(b)
      })
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8')
        const ok = res.statusCode === 200 && text.includes('data: [DONE]') && (!expectCall || text.includes('"tool_calls"'))
        resolve({ ms: performance.now() - start, firstByteMs, ok })
      })
    })
    req.on('error', () => resolve({ ms: performance.now() - start, firstByteMs: -1, ok: false }))
    req.end(body)
  })
}

/** C loops, each sending a request as soon as its last one ended, for D seconds. */
async function load(url: string, expectCall: boolean): Promise<Sample[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
  const samples: Sample[] = []
  const end = performance.now() + seconds * 1000
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) samples.push(await once(agent, url, expectCall))
    }),
  )
  agent.destroy()
  return samples
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN
}

function report(label: string, samples: Sample[]): { rps: number; p50: number; p99: number; f50: number; f99: number } {
  const ok = samples.filter((s) => s.ok)
  const ms = ok.map((s) => s.ms)
  const first = ok.map((s) => s.firstByteMs)
  const r = { rps: ok.length / seconds, p50: pct(ms, 50), p99: pct(ms, 99), f50: pct(first, 50), f99: pct(first, 99) }
  console.log(`${label.padEnd(16)} ${String(samples.length).padStart(6)} requests, ${samples.length - ok.length} failed, ${r.rps.toFixed(0)} req/s; whole response p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms; first byte p50 ${r.f50.toFixed(1)} ms, p99 ${r.f99.toFixed(1)} ms`)
  return r
}

const upstream = await startChild(['--import', 'tsx', join(root, 'bench/fake-upstream.ts'), '--gap', String(values.gap)])
const proxy = await startChild([join(root, 'dist/cli/main.js'), 'proxy', '--upstream', upstream.url, '--port', '0', '--quiet'])
try {
  console.log(`proxy load test: ${concurrency} concurrent streams for ${seconds} s per phase, upstream gap ${values.gap} ms between chunks; node ${process.version}, loopback`)
  // A short warm-up of both paths, so that neither phase pays for the JIT.
  for (const url of [upstream.url, proxy.url]) await Promise.all(Array.from({ length: 20 }, () => once(new http.Agent(), url, url === proxy.url)))
  const direct = report('upstream alone', await load(upstream.url, false))
  const through = report('through proxy', await load(proxy.url, true))
  console.log(`the proxy adds: whole response p50 ${(through.p50 - direct.p50).toFixed(1)} ms, p99 ${(through.p99 - direct.p99).toFixed(1)} ms; first byte p50 ${(through.f50 - direct.f50).toFixed(1)} ms, p99 ${(through.f99 - direct.f99).toFixed(1)} ms; req/s ${through.rps.toFixed(0)} vs ${direct.rps.toFixed(0)}`)
} finally {
  proxy.child.kill('SIGTERM')
  upstream.child.kill('SIGTERM')
}
