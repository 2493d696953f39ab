/**
 * DeepSeek DSML written by hand in tests: a parameter (`string="true"` by
 * default, `null` for none), an invoke, a block; and the text cut one UTF-16
 * unit at a time.
 */
export const O = '<｜DSML｜'
export const C = '</｜DSML｜'

export const param = (name: string, value: string, flag: string | null = 'true'): string =>
  `${O}parameter name="${name}"${flag === null ? '' : ` string="${flag}"`}>${value}${C}parameter>\n`
export const invoke = (name: string, ...params: string[]): string => `${O}invoke name="${name}">\n${params.join('')}${C}invoke>\n`
export const block = (...invokes: string[]): string => `${O}tool_calls>\n${invokes.join('')}${C}tool_calls>`
export const chars = (s: string): string[] => Array.from({ length: s.length }, (_, i) => s.charAt(i))
