/**
 * One comparison of the oracle: the guard's code ranges (`codeRanges`, from
 * the toolsieve lexer) against micromark's, in the normalised shape of
 * `normaliseFenced`. Also loads the spec examples.
 */
import spec from 'commonmark-spec'
import { codeRanges } from './code-ranges.js'
import type { Span } from '../../src/types.js'
import { normaliseFenced, referenceRanges } from './micromark.js'

export interface Comparison {
  markdown: string
  agree: boolean
  /** A block quote or list item in the document (by micromark). */
  containers: boolean
  micromark: { fenced: Span[]; text: Span[] }
  toolsieve: { fenced: Span[]; text: Span[] }
}

export function compare(markdown: string): Comparison {
  const ref = referenceRanges(markdown)
  const got = codeRanges(markdown)
  const micromark = { fenced: normaliseFenced(markdown, ref.fenced), text: ref.text }
  const toolsieve = { fenced: normaliseFenced(markdown, got.fenced), text: got.text }
  return { markdown, agree: JSON.stringify(micromark) === JSON.stringify(toolsieve), containers: ref.containers, micromark, toolsieve }
}

export interface Example {
  markdown: string
  section: string
  number: number
}

/** The spec's examples, with its `→` tab marker turned into tabs (as its own test runner does). */
export const examples: Example[] = spec.tests.map((t) => ({ markdown: t.markdown.replace(/→/g, '\t'), section: t.section, number: t.number }))

const show = (spans: Span[], text: string) => spans.map((s) => `${s.start}-${s.end} ${JSON.stringify(text.slice(s.start, s.end))}`).join(', ') || '—'

/** A disagreement, readable: the input, then each side's fenced and code-span ranges. */
export function describeDisagreement(c: Comparison, label = ''): string {
  return [
    `${label}${JSON.stringify(c.markdown)}`,
    `    micromark fenced: ${show(c.micromark.fenced, c.markdown)}  spans: ${show(c.micromark.text, c.markdown)}`,
    `    toolsieve fenced: ${show(c.toolsieve.fenced, c.markdown)}  spans: ${show(c.toolsieve.text, c.markdown)}`,
  ].join('\n')
}

/** Agreement figures of a set of comparisons, split by container blocks. */
export function tally(cs: readonly Comparison[]) {
  const plain = cs.filter((c) => !c.containers)
  const inContainers = cs.filter((c) => c.containers)
  return {
    plain: { agree: plain.filter((c) => c.agree).length, total: plain.length },
    containers: { agree: inContainers.filter((c) => c.agree).length, total: inContainers.length },
    disagreements: cs.filter((c) => !c.agree),
  }
}
