/**
 * What every packaging test runs wherever it loads toolsieve (the packed
 * tarball from ESM and CJS, an esbuild bundle in a child process and in a
 * bare `vm` context): a DSML block with prose around it, pushed in 7-character
 * chunks so that tags are cut mid-name, and the calls it must give.
 */
export const sampleText =
  'Let me look.\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_file">\n' +
  '<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n' +
  '<｜DSML｜parameter name="lines" string="false">20</｜DSML｜parameter>\n' +
  '</｜DSML｜invoke>\n</｜DSML｜tool_calls>\nDone.'

export const sampleCalls = [{ name: 'read_file', input: { path: 'src/a.ts', lines: 20 } }]

/**
 * A script body that expects `createSieve` in scope, streams the sample and
 * prints the calls as JSON: the caller prefixes an `import` or a `require`.
 */
export const sampleScript = `
const text = ${JSON.stringify(sampleText)}
const sieve = createSieve()
const events = []
for (let i = 0; i < text.length; i += 7) events.push(...sieve.push(text.slice(i, i + 7)))
events.push(...sieve.end())
const calls = events.filter((e) => e.type === 'tool-call').map((e) => ({ name: e.name, input: e.input }))
console.log(JSON.stringify(calls))
`

/** The calls a sample script printed (its last line of output). */
export function printedCalls(stdout: string): unknown {
  const lines = stdout.trim().split('\n')
  return JSON.parse(lines[lines.length - 1] ?? 'null')
}
