/**
 * Generators of DeepSeek-native values with markup-like text inside: tags
 * of every spelling family (openers, closers, whole blocks), CDATA and
 * comment openers and closers, entities, think tags, trailing `<` and bars.
 * A `string="true"` value is its exact text whatever it holds, unless it
 * holds its own closer, which the format cannot carry (left out here).
 */
import fc from 'fast-check'

/** Pieces that look like markup to a lenient reader. */
export const markupPiece = fc.constantFrom(
  '<tool_calls>', '</tool_calls>', '<invoke name="bash">', '</invoke>', '<parameter name="c">', '</parameter>', '<invoke name="x"/>',
  '<|DSML|tool_calls>', '</|DSML|parameter>', '<|DSML|invoke name="rm">', '<DSMLparameter>', '<｜tool_calls>', '</ |DSML| parameter >',
  '＜ＤＳＭＬ＜invoke name="a"＞', '＜／ＤＳＭＬ＜／parameter＞', '<｜DSML｜invoke name="x">', '</｜DSML｜tool_calls>', '<｜DSML｜parameter name="p" string="true">',
  '<![CDATA[', ']]>', '<![cdata[x]]>', '<!--', '-->', '<!-- c -->', '&amp;', '&lt;', '&#x3c;', '<think>', '</think>',
  '<', '<<', '<|', '<｜', '｜', '|', '>', '＜', '`', '```', '\n', '\r\n', ' ', '\t', 'a < b', 'x', '你好', '😀',
)

/** A value: some of the pieces above, joined; never the exact closer `</｜DSML｜parameter>`. */
export const nativeString = fc.array(markupPiece, { minLength: 0, maxLength: 8 }).map((parts) => parts.join('')).filter((v) => !v.includes('</｜DSML｜parameter>'))

/** A DeepSeek block (V3.2 or V4 wrapper) with string and JSON parameters, as the official encoders write it. */
export const nativeBlock = fc
  .tuple(fc.constantFrom('tool_calls', 'function_calls'), fc.array(fc.tuple(nativeString, fc.boolean()), { minLength: 1, maxLength: 3 }))
  .map(([wrapper, values]) => {
    const params = values.map(([v, asJson], i) =>
      asJson
        ? `<｜DSML｜parameter name="j${i}" string="false">${JSON.stringify({ s: v, n: [i, 2.5] })}</｜DSML｜parameter>`
        : `<｜DSML｜parameter name="s${i}" string="true">${v}</｜DSML｜parameter>`,
    )
    const input: Record<string, unknown> = {}
    values.forEach(([v, asJson], i) => {
      if (asJson) input[`j${i}`] = { s: v, n: [i, 2.5] }
      else input[`s${i}`] = v
    })
    const text = `\n\n<｜DSML｜${wrapper}>\n<｜DSML｜invoke name="tool">\n${params.join('\n')}\n</｜DSML｜invoke>\n</｜DSML｜${wrapper}>`
    return { text, input }
  })
