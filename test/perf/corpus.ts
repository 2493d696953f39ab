/**
 * The inputs the work bounds are checked on: the adversarial inputs
 * (`test/helpers/adversarial-inputs.ts`), the benchmark's own at a reduced
 * size, values dense in the characters that could end them, and ordinary
 * generated turns. Each says how many calls a correct reader finds, so a
 * bound is never checked on a reader that gets the answer wrong.
 */
import { ADVERSARIAL } from '../../bench/adversarial.js'
import { generateTurns } from '../../bench/transcripts.js'
import type { AdversarialCase } from '../helpers/adversarial-inputs.js'

export { ADVERSE, TAG_LOOKAHEAD } from '../helpers/adversarial-inputs.js'
/** An input and what a correct reader finds in it. */
export type WorkCase = AdversarialCase

const xmlCall = (value: string) => `<tool_calls><invoke name="w"><parameter name="p">${value}</parameter></invoke></tool_calls>`
const indented = '<tool_calls>\n  <invoke name="a">\n    <parameter name="p">x</parameter>\n  </invoke>\n</tool_calls>'

/** Values dense in the characters that could end them: a reader must not pay a token, or a re-read, per such character. */
export const DENSE: WorkCase[] = [
  { name: 'bracketed code in CDATA', input: xmlCall(`<![CDATA[${'rows[i][j] = grid[k];\n'.repeat(500)}]]>`), calls: 1 },
  { name: 'dashes in a comment in a value', input: xmlCall(`src/a.ts<!-- ${'a - b -- c <!-- d\n'.repeat(1000)}-->`), calls: 1 },
  { name: 'long attributes with quotes and blanks', input: indented.replace('name="p"', `name="p" ${'data-x = \'a b\'  note="a > b < c" '.repeat(30)}`), calls: 1 },
  { name: 'a long value after a tag', input: indented.replace('>x<', `>${'a/very/long/path/'.repeat(60)}main.rs<`), calls: 1 },
  { name: 'fence content with backticks and tildes, then a block', input: '```sh\n' + 'cd ~/src && echo `pwd` ``a`` ~~~ ```x\n'.repeat(60) + '```\n' + indented, calls: 1 },
  { name: 'inline code and closing tags mentioned in prose', input: 'Use `npm test` or ``a `b` c``, see `</tool_calls>` and </｜DSML｜invoke> here, if a < b then <= c.\n'.repeat(60), calls: 0 },
  { name: 'tags held after unmatched backticks, released by closing runs', input: 'see `<｜DSML｜invoke name="x">`. Then more `＜ＤＳＭＬ＜tool_calls＞` ok\n'.repeat(60), calls: 0 },
]

/** The benchmark's adversarial inputs at this scale (the ones with a floor are past the default capture limit at any scale). */
export const BENCH_SCALE = 0.02

export const BENCH: WorkCase[] = ADVERSARIAL.map((make) => {
  const a = make(BENCH_SCALE)
  return { name: `bench: ${a.label}`, input: a.text, calls: a.calls.length, opts: a.options }
})

/** Ordinary turns, as the benchmark generates them (prose, lists, fences with examples, blocks in every spelling). */
export const TURNS: WorkCase[] = generateTurns({ seed: 7, size: 24 * 1024, big: 0 }).map((t) => ({ name: `turn ${t.id}`, input: t.text, calls: t.calls.length }))
