/**
 * `toolsieve/stream`: model text piped through `SieveStream`, a WHATWG
 * TransformStream, so any runtime with web streams (Node, Deno, Bun, a
 * browser, an edge function) gets sieve events from a text stream.
 */
import { SieveStream } from 'toolsieve/stream'

const pieces = ['Let me read it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="read_', 'file">\n<｜DSML｜parameter name="path" string="true">src/main.rs</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>']
const text = new ReadableStream<string>({
  start(controller) {
    for (const piece of pieces) controller.enqueue(piece)
    controller.close()
  },
})

for await (const event of text.pipeThrough(new SieveStream())) {
  if (event.type === 'text') console.log('text', JSON.stringify(event.text))
  else if (event.type === 'tool-call') console.log('call', event.name, event.arguments)
}
