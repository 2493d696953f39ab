/**
 * What `streamArguments` costs as one block grows past the default capture
 * limit: CPU ms per MB with and without it, the limit raised to 8 MiB, for
 * one block of 256 KiB to 2 MiB made of many parameters (`params`, `raw`:
 * string="true") or many invokes (`invokes`). Linear: ms per MB flat.
 *
 *     npx tsx bench/stream-arguments-scaling.ts [params|raw|invokes] [token|<chunk size>]
 */
import { createSieve } from '../src/index.js'
import { fixedChunks, tokenChunks } from './chunks.js'
const shape = process.argv[2] ?? 'params'
const chunking = process.argv[3] ?? 'token'
function block(size: number): { text: string; calls: number } {
  const parts: string[] = ['Writing.\n\n<｜DSML｜tool_calls>\n' + (shape === 'invokes' ? '' : '<｜DSML｜invoke name="write_file">\n')]
  let n = 0, len = 0
  while (len < size) {
    const p = shape === 'invokes' ? `<｜DSML｜invoke name="f${n}">\n<｜DSML｜parameter name="p">value ${n} lorem ipsum dolor sit amet</｜DSML｜parameter>\n</｜DSML｜invoke>\n`
      : shape === 'raw' ? `<｜DSML｜parameter name="p${n}" string="true">value ${n} lorem ipsum dolor sit amet</｜DSML｜parameter>\n`
      : `<｜DSML｜parameter name="p${n}">value ${n} lorem ipsum dolor sit amet</｜DSML｜parameter>\n`
    parts.push(p); len += p.length; n++
  }
  parts.push((shape === 'invokes' ? '' : '</｜DSML｜invoke>\n') + '</｜DSML｜tool_calls>\nDone.\n')
  return { text: parts.join(''), calls: shape === 'invokes' ? n : 1 }
}
function run(chunks: string[], streamArguments: boolean, want: number): number {
  const t0 = process.cpuUsage()
  const s = createSieve({ streamArguments, captureLimit: 8 << 20 })
  let calls = 0
  for (const c of chunks) for (const e of s.push(c)) if (e.type === 'tool-call') calls++
  for (const e of s.end()) if (e.type === 'tool-call') calls++
  const u = process.cpuUsage(t0)
  if (calls !== want) throw new Error(`calls ${calls}`)
  return (u.user + u.system) / 1000
}
const warm = block(64 * 1024); run(fixedChunks(warm.text, 64), true, warm.calls); run(fixedChunks(warm.text, 64), false, warm.calls)
console.log(`${shape}, ${chunking} chunks: CPU ms per MB (best of 2)`)
console.log('size    off     on   on/off')
for (const kb of [256, 512, 1024, 2048]) {
  const { text, calls } = block(kb * 1024)
  const chunks = chunking === 'token' ? tokenChunks(text, 7) : fixedChunks(text, Number(chunking))
  const mb = text.length / 1024 / 1024
  const off = Math.min(run(chunks, false, calls), run(chunks, false, calls)) / mb
  const on = Math.min(run(chunks, true, calls), run(chunks, true, calls)) / mb
  console.log(`${String(kb).padStart(4)}K ${off.toFixed(0).padStart(6)} ${on.toFixed(0).padStart(6)} ${(on / off).toFixed(2).padStart(7)}`)
}
