/**
 * The checkpoint mutation property, run in a child process by
 * `checkpoint-mutation.test.ts` so that a push that never returns is caught
 * (the parent kills the child and reports the case it was on, which this
 * writes to stderr before running it). Arguments: seed, number of runs.
 *
 * Each run: a random stream in random chunks, a checkpoint after a random
 * chunk, through JSON. Unmutated, it must resume to the events of the run
 * without a checkpoint. With one field mutated (deleted, of the wrong type,
 * an empty string, a number out of range, another enum member), it must be
 * refused with `invalid-checkpoint`, or resume and finish the stream with no
 * `internal-error` and no exception.
 */
import fc from 'fast-check'
import { createSieve } from '../../src/index.js'
import { ToolsieveError } from '../../src/errors.js'
import type { SieveCheckpoint, SieveEvent, SieveOptions } from '../../src/types.js'
import { normalise } from '../helpers/chunking.js'
import { chunkBy, chunkSizes, document } from '../properties/generator.js'

const quotedText = 'What does `<tool_calls><invoke name="read_file"><parameter name="path">src/a.ts</parameter></invoke></tool_calls>` do?'
const OPTIONS: SieveOptions[] = [{}, { streamArguments: true }, { quoted: [quotedText] }, { quoted: [quotedText], streamArguments: true }, { reasoningCalls: 'call', startInReasoning: true }, { captureLimit: 80 }]
const MODES = ['prose', 'span', 'spanHold', 'fence', 'fenceInfo', 'fenceInfoHold', 'tagWrapper', 'tagInvoke', 'tagParameter', 'attrDqParameter', 'wrapperBody', 'invokeBody', 'jsonBody', 'value', 'rawValue', 'skip', 'cdata', 'commentValue', 'halt', 'htmlRaw', 'indented']
const ENUMS = [...MODES, 'wrapper', 'invoke', 'start', 'in', 'done', 'ValueText', 'InvokeClose', 'WrapperOpen', 'Incomplete', '*', 'dsml', 'xml']

type Path = Array<string | number>

const streamed = new Set(['tool-call-start', 'tool-call-delta', 'tool-call-abort'])

/** The events as compared: {@link normalise}d, and the streamed calls' events in order without their ids. */
function comparable(events: SieveEvent[]): string {
  const stream = events.filter((e) => streamed.has(e.type)).map((e) => ({ ...e, id: undefined }))
  return JSON.stringify([normalise(events.filter((e) => !streamed.has(e.type))), stream])
}
type Json = unknown

/** Every field of `value` (objects and arrays, not the root), as paths. */
function paths(value: Json, at: Path = [], out: Path[] = []): Path[] {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const p = [...at, Array.isArray(value) ? Number(key) : key]
      out.push(p)
      paths((value as Record<string, Json>)[key], p, out)
    }
  }
  return out
}

/** Replacements for a field holding `v`: the wrong type, empty, out of range, another enum member. */
function replacements(v: Json): Json[] {
  const wrong: Json[] = [null, 'x', 7, true, [], {}]
  if (typeof v === 'string') return [...wrong, '', v + v, ...ENUMS]
  if (typeof v === 'number') return [...wrong, -1, -2, v + 1, v - 1, v * 2 + 3, 2 ** 31, 1e15, 0.5, 0]
  if (typeof v === 'boolean') return [...wrong, !v]
  if (Array.isArray(v)) return [...wrong, [...v, ...v], v.slice(1), v.slice(0, -1), [v[0] ?? 0]]
  return wrong
}

function run(chunks: string[], stop: number, opts: SieveOptions, mutate: ((cp: SieveCheckpoint) => string) | null): { events: SieveEvent[]; refused: string | null; what: string } {
  const first = createSieve(opts)
  const events: SieveEvent[] = []
  for (const chunk of chunks.slice(0, stop)) events.push(...first.push(chunk))
  const cp = JSON.parse(JSON.stringify(first.checkpoint())) as SieveCheckpoint
  const what = mutate === null ? 'unmutated' : mutate(cp)
  let second
  try {
    second = createSieve({ ...opts, resume: cp })
  } catch (e) {
    if (e instanceof ToolsieveError && e.code === 'invalid-checkpoint') return { events, refused: e.field ?? '', what }
    throw e
  }
  for (const chunk of chunks.slice(stop)) events.push(...second.push(chunk))
  events.push(...second.end())
  return { events, refused: null, what }
}

const [seed, runs] = process.argv.slice(2).map(Number)
let mutated = 0
let refused = 0
fc.assert(
  fc.property(document(8), chunkSizes, fc.nat(), fc.nat(OPTIONS.length - 1), fc.nat(), fc.nat(), (input, sizes, stopAt, o, which, how) => {
    const opts = OPTIONS[o]!
    const chunks = chunkBy(input, sizes)
    const stop = stopAt % (chunks.length + 1)
    process.stderr.write(`case ${JSON.stringify({ input, sizes, stop, opts: o, which, how })}\n`)
    const reference = createSieve(opts)
    const expected = comparable([...chunks.flatMap((c) => reference.push(c)), ...reference.end()])
    const plain = run(chunks, stop, opts, null)
    if (plain.refused !== null) throw new Error(`an unmutated checkpoint was refused at ${plain.refused}`)
    const got = comparable(plain.events)
    if (got !== expected) throw new Error(`an unmutated checkpoint resumed to other events:\n${got}\n${expected}`)
    const r = run(chunks, stop, opts, (cp) => {
      const all = paths(cp.state).map((p) => ['state', ...p] as Path)
      all.push(['quoted'], ['grammar'], ['version'])
      const path = all[which % all.length]!
      let parent = cp as unknown as Record<string | number, Json>
      for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, Json>
      const key = path[path.length - 1]!
      const options = replacements(parent[key])
      const choice = how % (options.length + 1)
      if (choice === options.length) {
        if (Array.isArray(parent)) parent.splice(key as number, 1)
        else delete parent[key]
        return `${path.join('.')} deleted`
      }
      parent[key] = options[choice]
      return `${path.join('.')} = ${JSON.stringify(options[choice])}`
    })
    mutated++
    if (r.refused !== null) refused++
    const bad = r.events.find((e) => e.type === 'diagnostic' && e.code === 'internal-error')
    if (bad !== undefined) throw new Error(`${r.what}: internal-error: ${bad.type === 'diagnostic' ? bad.message : ''}`)
  }),
  { seed, numRuns: runs },
)
process.stdout.write(JSON.stringify({ mutated, refused }) + '\n')
