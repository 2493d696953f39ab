/**
 * A spelling of your own, as data: a frame for `[TOOL:tool_calls] … [/TOOL:tool_calls]`
 * added to the default grammar, and a wrapper name of its own. Blocks in the
 * default spellings are still read.
 */
import { createSieve, defaultGrammar, extendGrammar, parseToolCalls } from 'toolsieve'

const grammar = extendGrammar(defaultGrammar, {
  frames: [
    {
      name: 'brackets',
      open: [[{ lit: ['['], min: 1, max: 2 }, { lit: ['TOOL:', 'tool:'] }, { name: true }]],
      close: [[{ lit: ['['] }, { lit: ['/'] }, { lit: ['TOOL:', 'tool:'] }, { name: true }]],
      end: [[{ lit: [']'] }]],
    },
  ],
  wrapper: [{ name: 'actions', frames: ['brackets'] }],
})

const answer = 'Sure.\n[TOOL:actions][TOOL:invoke name="get_weather"][TOOL:parameter name="city" string="true"]Paris[/TOOL:parameter][/TOOL:invoke][/TOOL:actions]'
const { calls, text } = parseToolCalls(answer, { grammar })
console.log(JSON.stringify(text), calls.map((c) => `${c.name} ${c.arguments}`).join('; '))

// the same grammar streams, and still reads DeepSeek's own spelling
const sieve = createSieve({ grammar })
const events = [...sieve.push('<｜DSML｜tool_calls><｜DSML｜invoke name="ping"></｜DSML｜invoke></｜DSML｜tool_calls>'), ...sieve.end()]
console.log(events.filter((e) => e.type === 'tool-call').map((e) => (e.type === 'tool-call' ? e.name : '')).join())
