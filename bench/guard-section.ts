/**
 * Section 2 of `npm run bench` (see `bench/run.ts`): the transcript's turns
 * with their fenced examples in each parser's own format, to count the calls
 * a parser without a Markdown guard invents.
 */
import { markdownTable, table } from './measure.js'
import type { Report } from './measure.js'
import { sameCalls, streamPeer, streamSieve } from './passes.js'
import { PEERS, drainTimers } from './peers.js'
import { renderTurn, type Turn } from './transcripts.js'

export async function guardSection(report: Report, turns: readonly Turn[]): Promise<void> {
  console.log('')
  console.log('## 2. Markdown guard: fenced tool-call examples written in each parser\'s own format')
  const withExamples = turns.filter((t) => t.segments.some((s) => s.kind === 'fence' && s.fence.kind === 'example'))
  const examples = withExamples.reduce(
    (n, t) => n + t.segments.reduce((m, s) => m + (s.kind === 'fence' && s.fence.kind === 'example' ? s.fence.block.calls.length : 0), 0),
    0,
  )
  const rows: string[][] = []
  const guard: Array<Record<string, unknown>> = []
  {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamSieve([t.text])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    rows.push(['toolsieve (examples in DSML and XML)', `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: 'toolsieve', turns: withExamples.length, exact, invented })
  }
  for (const peer of PEERS) {
    let exact = 0
    let invented = 0
    for (const t of withExamples) {
      const found = streamPeer(peer, [renderTurn(t.segments, peer.formatWithExamples)])
      if (sameCalls(found.calls, t.calls)) exact++
      invented += Math.max(0, found.calls.length - t.calls.length)
    }
    await drainTimers()
    rows.push([`${peer.label} (examples in its format)`, `${exact}/${withExamples.length}`, String(invented)])
    guard.push({ runner: peer.id, turns: withExamples.length, exact, invented })
  }
  console.log(`${withExamples.length} turns hold ${examples} example calls inside \`\`\` / ~~~ fences; whole-turn chunks.`)
  const header = ['parser', 'turns exact', 'calls invented']
  console.log(table(header, rows))
  report.markdown.push(`### Markdown guard\n\n${markdownTable(header, rows)}\n`)
  report.results.guard = { turns: withExamples.length, exampleCalls: examples, runners: guard }
}
