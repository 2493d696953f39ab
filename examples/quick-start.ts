/**
 * The README's quick start: a model's answer arrives in pieces, one of them
 * cut inside a DSML tag; the sieve gives back the text and the call.
 */
import { createSieve } from 'toolsieve'

const pieces = ['Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜inv', 'oke name="read_file">\n<｜DSML｜parameter name="path" string="true">src/main.rs</｜DSML｜parameter>\n', '</｜DSML｜invoke>\n</｜DSML｜tool_calls>']

const sieve = createSieve({ tools: ['read_file'] })
for (const piece of pieces) {
  for (const event of sieve.push(piece)) {
    if (event.type === 'text') process.stdout.write(event.text)
    if (event.type === 'tool-call') console.log(`call ${event.name} ${event.arguments}`)
  }
}
for (const event of sieve.end()) if (event.type === 'text') process.stdout.write(event.text)
