/**
 * Builders for tool-call blocks in every spelling the default grammar
 * recognises, so spec files and property tests share one table.
 */

/** How one spelling family writes the tags of a block. */
export interface Spelling {
  label: string
  /** The wrapper's local name in this spelling (`tool_calls`, `function_calls`, `calls`). */
  wrapper: string
  /** An opening tag: local name plus attributes (` name="x"`). */
  open(local: string, attrs?: string): string
  /** A closing tag. */
  close(local: string): string
}

const upper = (local: string): string => local.toUpperCase()

/** The spellings the issue names as canonical. */
export const SPELLINGS: readonly Spelling[] = [
  { label: 'DSML with U+FF5C bars', wrapper: 'tool_calls', open: (l, a = '') => `<｜DSML｜${l}${a}>`, close: (l) => `</｜DSML｜${l}>` },
  { label: 'DSML with ASCII bars', wrapper: 'tool_calls', open: (l, a = '') => `<|DSML|${l}${a}>`, close: (l) => `</|DSML|${l}>` },
  { label: 'fullwidth ＜ＤＳＭＬ＜…＞', wrapper: 'tool_calls', open: (l, a = '') => `＜ＤＳＭＬ＜${l}${a}＞`, close: (l) => `＜／ＤＳＭＬ＜／${l}＞` },
  { label: 'fullwidth ＜｜ＤＳＭＬ｜…＞', wrapper: 'tool_calls', open: (l, a = '') => `＜｜ＤＳＭＬ｜${l}${a}＞`, close: (l) => `＜／｜ＤＳＭＬ｜${l}＞` },
  { label: 'plain XML', wrapper: 'tool_calls', open: (l, a = '') => `<${l}${a}>`, close: (l) => `</${l}>` },
  { label: 'plain XML function_calls', wrapper: 'function_calls', open: (l, a = '') => `<${l}${a}>`, close: (l) => `</${l}>` },
  { label: 'DSML function_calls (V3.2)', wrapper: 'function_calls', open: (l, a = '') => `<｜DSML｜${l}${a}>`, close: (l) => `</｜DSML｜${l}>` },
  { label: 'V4.1 spaced <｜DSML｜ calls>', wrapper: 'calls', open: (l, a = '') => `<｜DSML｜ ${l}${a}>`, close: (l) => `</｜DSML｜ ${l}>` },
]

/** Drift real models emit, bounded in the default grammar. */
export const DRIFT: readonly Spelling[] = [
  { label: 'upper-case DSML names', wrapper: 'tool_calls', open: (l, a = '') => `<｜dsml｜${upper(l)}${a}>`, close: (l) => `</｜Dsml｜${upper(l)}>` },
  { label: 'mixed-case XML names', wrapper: 'Tool_Calls', open: (l, a = '') => `<${l === 'invoke' ? 'Invoke' : l === 'parameter' ? 'PARAMETER' : l}${a}>`, close: (l) => `</${l === 'invoke' ? 'INVOKE' : l === 'parameter' ? 'Parameter' : l}>` },
  { label: 'no leading bar <DSML|…>', wrapper: 'tool_calls', open: (l, a = '') => `<DSML|${l}${a}>`, close: (l) => `</DSML|${l}>` },
  { label: 'doubled bars <||DSML||…>', wrapper: 'tool_calls', open: (l, a = '') => `<||DSML||${l}${a}>`, close: (l) => `</||DSML||${l}>` },
  { label: 'mixed bars <｜DSML|…>', wrapper: 'tool_calls', open: (l, a = '') => `<｜DSML|${l}${a}>`, close: (l) => `</｜DSML|${l}>` },
  { label: 'spaces < |DSML| … >', wrapper: 'tool_calls', open: (l, a = '') => `< |DSML| ${l}${a} >`, close: (l) => `< /|DSML| ${l} >` },
  { label: 'repeated < <<|DSML|…>', wrapper: 'tool_calls', open: (l, a = '') => `<<|DSML|${l}${a}>`, close: (l) => `<</|DSML|${l}>` },
  { label: 'trailing bar with > <|DSML|…|>', wrapper: 'tool_calls', open: (l, a = '') => `<|DSML|${l}${a}|>`, close: (l) => `</|DSML|${l}|>` },
  { label: 'trailing bar without > <|DSML|…|', wrapper: 'tool_calls', open: (l, a = '') => `<|DSML|${l}${a}|`, close: (l) => `</|DSML|${l}|` },
]

/** Every spelling whose tags end in `>`/`＞` (safe to follow with any prose). */
export const CLOSED_SPELLINGS: readonly Spelling[] = [...SPELLINGS, ...DRIFT.filter((s) => !s.label.includes('without >'))]

export interface CallSpec {
  name: string
  params?: Record<string, string>
}

export interface BuiltBlock {
  markup: string
  /** The raw of each call, by the partition rule (see block-capture.test.ts). */
  raws: string[]
  calls: { name: string; input: Record<string, string> }[]
}

/** One invoke: opener, parameters, closer (parameters separated by `sep`). */
export function invoke(s: Spelling, call: CallSpec, sep = '\n'): string {
  let out = s.open('invoke', ` name="${call.name}"`) + sep
  for (const [key, value] of Object.entries(call.params ?? {})) {
    out += s.open('parameter', ` name="${key}"`) + value + s.close('parameter') + sep
  }
  return out + s.close('invoke')
}

/**
 * A whole block. Raw partition: call 1 runs from the wrapper opener through
 * invoke 1's closer; each later call from just after the previous closer
 * through its own; the last also takes everything through the wrapper closer.
 */
export function buildBlock(s: Spelling, specs: readonly CallSpec[], sep = '\n'): BuiltBlock {
  const raws: string[] = []
  specs.forEach((spec, i) => raws.push((i === 0 ? s.open(s.wrapper) + sep : sep) + invoke(s, spec, sep)))
  const closing = sep + s.close(s.wrapper)
  if (raws.length > 0) raws[raws.length - 1] += closing
  const markup = raws.length > 0 ? raws.join('') : s.open(s.wrapper) + closing
  const calls = specs.map((spec) => ({ name: spec.name, input: { ...(spec.params ?? {}) } }))
  return { markup, raws, calls }
}

/** Shorthand: the markup of a block in `s`. */
export function block(s: Spelling, specs: readonly CallSpec[], sep = '\n'): string {
  return buildBlock(s, specs, sep).markup
}

/** A plain-XML block with one `read_file` call on `path`. */
export function readFile(path = 'src/a.ts', s: Spelling = SPELLINGS[4]!): string {
  return block(s, [{ name: 'read_file', params: { path } }])
}
