/**
 * The scaling input: one call whose single value grows to any length, so
 * the time per doubling shows whether one long value stays linear
 * (`npm run bench` section 3, `npm run bench:quick`, and the fixture test).
 */
import type { Transcript } from './generate.js'

export interface ParameterStreamOptions {
  /** Wrap the value in CDATA. Default false (plain text value). */
  cdata?: boolean
}

/**
 * One canonical DSML block whose single `content` parameter value is exactly
 * `length` characters (ASCII, so also `length` bytes). For the doubling table.
 */
export function generateParameterStream(length: number, options: ParameterStreamOptions = {}): Transcript {
  const unit = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; '
  let value = unit.repeat(Math.ceil(length / unit.length) + 1).slice(0, length)
  // Trimming must not change the value: no space at either end.
  if (length > 0) value = `x${value.slice(1, -1)}${length > 1 ? 'x' : ''}`
  const body = options.cdata === true ? `<![CDATA[${value}]]>` : value
  const text =
    'Writing the file now.\n\n' +
    '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="write_file">\n' +
    // DeepSeek writes a string raw with `string="true"`; a CDATA body belongs to a value without the attribute
    `<｜DSML｜parameter name="content"${options.cdata === true ? '' : ' string="true"'}>${body}</｜DSML｜parameter>\n` +
    '</｜DSML｜invoke>\n</｜DSML｜tool_calls>\n\nDone.\n'
  return { text, calls: [{ name: 'write_file', input: { content: value } }], blocks: 1 }
}
