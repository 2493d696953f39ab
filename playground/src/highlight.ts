/**
 * The input cut where the run's pieces and problems begin and end, so the
 * page can mark each stretch: a call's markup whole in one mark (a problem
 * inside it is marked within), a problem that spans several pieces marked in
 * each of them.
 */
import type { Span } from 'toolsieve'
import type { Piece } from './run.js'

export interface Stretch {
  start: number
  end: number
  /** The indexes of the problems (`RunResult.problems`) whose span covers this stretch. */
  problems: number[]
  /** A push ended right before this stretch (only when the caller passed the pushes' edges). */
  cut: boolean
}

export interface Block {
  piece: Piece
  stretches: Stretch[]
}

/** The pieces, each cut by the problems' span edges, and the pushes' edges (`cuts`), that fall inside it. */
export function blocks(pieces: readonly Piece[], problems: ReadonlyArray<{ span: Span }>, cuts: readonly number[] = []): Block[] {
  const edges = new Set<number>(cuts)
  const pushEdges = new Set<number>(cuts)
  for (const p of problems) edges.add(p.span.start).add(p.span.end)
  return pieces.map((piece) => {
    const cuts = [piece.span.start, ...[...edges].filter((e) => e > piece.span.start && e < piece.span.end).sort((a, b) => a - b), piece.span.end]
    const stretches: Stretch[] = []
    for (let i = 0; i + 1 < cuts.length; i++) {
      const start = cuts[i]!
      const end = cuts[i + 1]!
      const covering: number[] = []
      problems.forEach((p, n) => {
        if (p.span.start <= start && end <= p.span.end && p.span.start < p.span.end) covering.push(n)
      })
      stretches.push({ start, end, problems: covering, cut: pushEdges.has(start) })
    }
    return { piece, stretches }
  })
}
