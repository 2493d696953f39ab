/**
 * Reasoning (DeepSeek's thinking mode) in front of the driver: a stream
 * that starts, after optional whitespace, with `<think>` — or that starts
 * inside the reasoning, when the prompt ended with `<think>` as DeepSeek's
 * own encoder writes it — has its reasoning split off up to the first
 * `</think>`. The reasoning never reaches the lexer, so a fence left open in
 * it cannot hide the answer, and a block inside it is reasoning, not a call.
 *
 * ```
 * > |   <think>let me see ``` …</think>Here <｜DSML｜tool_calls>…
 *       ^^^^^^^ start     ^^^^^^^^^^^^ reasoning, then the answer goes to the driver
 * ```
 */
import type { SieveEvent } from '../types.js'
import type { DriverState } from './state.js'

/** Where the events go: the driver's emitter. */
export interface EventSink {
  text(s: string): void
  event(e: SieveEvent): void
}

/** Where the stream stands with respect to its reasoning. */
export interface ReasoningState {
  /**
   * `start`: nothing but whitespace and a prefix of an opener seen yet;
   * `in`: inside the reasoning; `done`: the answer (everything goes to the driver).
   */
  phase: 'start' | 'in' | 'done'
  /**
   * The undecided tail: in `start` the leading whitespace and a prefix of an
   * opener (`  <thi`), in `in` a prefix of a closer (`</thi`). Never longer
   * than the whitespace plus the longest tag.
   */
  held: string
  /** Stream offset where `held` starts: spans of reasoning events are offsets in the whole stream. */
  pos: number
  /** With `reasoningCalls: 'call'`: the state of the driver the reasoning goes through (`reasoning-calls.ts`). */
  inner?: DriverState | null
}

/** The reasoning tags, as the grammar's `reasoning` names them. */
export interface ReasoningTags {
  open: readonly string[]
  close: readonly string[]
}

/** Most leading whitespace held while a `<think>` may still follow; past it the stream is an answer. */
const maxLeadingSpace = 4096

export function initialReasoning(startInReasoning: boolean, enabled: boolean): ReasoningState {
  return { phase: !enabled ? 'done' : startInReasoning ? 'in' : 'start', held: '', pos: 0 }
}

/** The stream is past its reasoning (or had none): everything goes to the driver. */
export function reasoningDone(s: ReasoningState): boolean {
  return s.phase === 'done'
}

/** The length of the longest suffix of `text` that is a proper prefix of one of `tags` (a tag the next chunk may complete). */
function partialSuffix(text: string, tags: readonly string[]): number {
  let best = 0
  for (const tag of tags) {
    for (let k = Math.min(tag.length - 1, text.length); k > best; k--) {
      if (text.endsWith(tag.slice(0, k))) {
        best = k
        break
      }
    }
  }
  return best
}

/**
 * Splits a chunk: reasoning events go to `out`, and what follows the
 * reasoning (or the whole chunk, when there is none) is returned for the
 * driver ('' when nothing is for it yet).
 */
export function splitReasoning(s: ReasoningState, tags: ReasoningTags, chunk: string, out: EventSink): string {
  if (s.phase === 'done') return chunk
  const text = s.held + chunk
  if (s.phase === 'start') {
    let ws = 0
    while (ws < text.length && /\s/.test(text.charAt(ws))) ws++
    // past the bound the stream is an answer, however it is chunked
    if (ws > maxLeadingSpace) {
      s.phase = 'done'
      s.held = ''
      return text
    }
    const rest = text.slice(ws)
    // the shortest opener that is there: decided as soon as it is complete, so the same in every chunking
    // (Gemma's `<|channel>thought` and `<|channel>thought\n`: the line feed is reasoning)
    let open: string | undefined
    for (const t of tags.open) if (rest.startsWith(t) && (open === undefined || t.length < open.length)) open = t
    if (open !== undefined) {
      if (ws > 0) out.text(text.slice(0, ws))
      const at = s.pos + ws
      out.event({ type: 'reasoning-start', raw: open, span: { start: at, end: at + open.length } })
      s.phase = 'in'
      s.held = ''
      s.pos = at + open.length
      return splitReasoning(s, tags, rest.slice(open.length), out)
    }
    // only whitespace, or whitespace and the start of an opener: wait for more
    if (rest === '' || tags.open.some((t) => t.startsWith(rest))) {
      s.held = text
      return ''
    }
    s.phase = 'done'
    s.held = ''
    return text
  }
  let first = -1
  let close = ''
  for (const t of tags.close) {
    const i = text.indexOf(t)
    // at one place the shortest closer: the one a chunked stream completes first
    if (i >= 0 && (first < 0 || i < first || (i === first && t.length < close.length))) {
      first = i
      close = t
    }
  }
  if (first < 0) {
    const keep = partialSuffix(text, tags.close)
    const said = text.slice(0, text.length - keep)
    if (said !== '') out.event({ type: 'reasoning', text: said })
    s.pos += said.length
    s.held = text.slice(text.length - keep)
    return ''
  }
  if (first > 0) out.event({ type: 'reasoning', text: text.slice(0, first) })
  const at = s.pos + first
  out.event({ type: 'reasoning-end', raw: close, span: { start: at, end: at + close.length } })
  s.phase = 'done'
  s.held = ''
  s.pos = at + close.length
  return text.slice(first + close.length)
}

/** The stream ended: what was held goes out (leading whitespace as text for the driver, a closer's prefix as reasoning). */
export function endReasoning(s: ReasoningState, out: EventSink): string {
  const held = s.held
  s.held = ''
  if (s.phase === 'in') {
    if (held !== '') out.event({ type: 'reasoning', text: held })
    s.phase = 'done'
    return ''
  }
  s.phase = 'done'
  return held
}
