/**
 * The spellings the seeded generators write blocks in: each family of the
 * default grammar (DSML with fullwidth or ASCII bars, the fully fullwidth
 * form with or without bars, plain XML, and the `function_calls` and V4.1
 * `calls` wrapper names),
 * weighted so the canonical DeepSeek one comes most often, as it does in
 * what the model writes. The drift spellings (doubled, missing or lone
 * bars, DSML twice, stray spaces, repeated `<`) are the unit tests'
 * (`test/helpers/blocks.ts` `DRIFT`, and `test/sieve/drift.test.ts`).
 */
import type { Rng } from './generate.js'

/** How each spelling writes the three tags. */
export interface Spelling {
  /** Short label, for reports. */
  id: string
  open(local: string, attrs: string): string
  close(local: string): string
  wrapper: string
  /** DSML spellings carry `string="true"` on most parameters. */
  dsml: boolean
}

const attrsOf = (a: string): string => (a === '' ? '' : ` ${a}`)

const DSML_FW: Spelling = { id: 'dsml', open: (l, a) => `<｜DSML｜${l}${attrsOf(a)}>`, close: (l) => `</｜DSML｜${l}>`, wrapper: 'tool_calls', dsml: true }
const DSML_ASCII: Spelling = { id: 'dsml-ascii', open: (l, a) => `<|DSML|${l}${attrsOf(a)}>`, close: (l) => `</|DSML|${l}>`, wrapper: 'tool_calls', dsml: true }
const DSML_FUNC: Spelling = { ...DSML_FW, id: 'dsml-function_calls', wrapper: 'function_calls' }
const DSML_V41: Spelling = { id: 'dsml-v4.1', open: (l, a) => `<｜DSML｜ ${l}${attrsOf(a)}>`, close: (l) => `</｜DSML｜ ${l}>`, wrapper: 'calls', dsml: true }
const FULLWIDTH: Spelling = { id: 'fullwidth', open: (l, a) => `＜ＤＳＭＬ＜${l}${attrsOf(a)}＞`, close: (l) => `＜／ＤＳＭＬ＜／${l}＞`, wrapper: 'tool_calls', dsml: true }
const FULLWIDTH_BARS: Spelling = { id: 'fullwidth-bars', open: (l, a) => `＜｜ＤＳＭＬ｜${l}${attrsOf(a)}＞`, close: (l) => `＜／｜ＤＳＭＬ｜${l}＞`, wrapper: 'tool_calls', dsml: true }
const PLAIN: Spelling = { id: 'xml', open: (l, a) => `<${l}${attrsOf(a)}>`, close: (l) => `</${l}>`, wrapper: 'tool_calls', dsml: false }
const PLAIN_FUNC: Spelling = { ...PLAIN, id: 'xml-function_calls', wrapper: 'function_calls' }

/** Weighted: the canonical DeepSeek spelling most often. */
export const SPELLINGS: ReadonlyArray<[Spelling, number]> = [
  [DSML_FW, 50], [DSML_ASCII, 12], [DSML_FUNC, 6], [DSML_V41, 4],
  [FULLWIDTH, 8], [FULLWIDTH_BARS, 4], [PLAIN, 12], [PLAIN_FUNC, 4],
]
const SPELLING_TOTAL = SPELLINGS.reduce((sum, [, w]) => sum + w, 0)

/** The canonical DeepSeek spelling, `<｜DSML｜tool_calls>`. */
export const CANONICAL: Spelling = DSML_FW

export function spelling(rng: Rng): Spelling {
  let r = rng() * SPELLING_TOTAL
  for (const [s, w] of SPELLINGS) if ((r -= w) < 0) return s
  return DSML_FW
}
