/**
 * `toolsieve/anthropic` over a Messages stream whose text leaked DSML: what
 * comes out has the call as a `tool_use` block and clean text blocks, as an
 * Anthropic client expects. The stream here is recorded events; with the SDK
 * it is `await client.messages.create({ …, stream: true })`, or put
 * `sieveMiddleware()` in the client and use `client.messages.stream()`.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages'
import { sieveMessagesStream } from 'toolsieve/anthropic'

const text = ['Checking.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜param', 'eter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>']

async function* upstream(): AsyncIterable<RawMessageStreamEvent> {
  yield { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'deepseek-chat', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 9, output_tokens: 0 } } as never }
  yield { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '', citations: null } }
  for (const piece of text) yield { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }
  yield { type: 'content_block_stop', index: 0 }
  yield { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null, container: null, stop_details: null }, usage: { output_tokens: 30 } as never }
  yield { type: 'message_stop' }
}

const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: { city: { type: 'string' } } } }]
for await (const event of sieveMessagesStream(upstream(), { tools })) {
  if (event.type === 'content_block_start') console.log('start', event.index, event.content_block.type, event.content_block.type === 'tool_use' ? event.content_block.name : '')
  else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') console.log('text', JSON.stringify(event.delta.text))
  else if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') console.log('input', event.delta.partial_json)
  else if (event.type === 'message_delta') console.log('stop_reason', event.delta.stop_reason)
}
