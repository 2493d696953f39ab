/**
 * `toolsieve/openai` over a chat completion stream whose content leaked
 * DSML: what comes out has the call in `delta.tool_calls` and clean content,
 * as an OpenAI client expects. The stream here is recorded chunks; with the
 * SDK it is `await client.chat.completions.create({ …, stream: true })`.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import { sieveChatStream } from 'toolsieve/openai'

const content = ['Checking.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="get_weather">\n<｜DSML｜param', 'eter name="city" string="true">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>']
const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: ChatCompletionChunk.Choice['finish_reason'] = null): ChatCompletionChunk => ({
  id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'deepseek-chat', choices: [{ index: 0, delta, finish_reason: finish }],
})

async function* upstream(): AsyncIterable<ChatCompletionChunk> {
  yield chunk({ role: 'assistant', content: '' })
  for (const piece of content) yield chunk({ content: piece })
  yield chunk({}, 'stop')
}

const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]
for await (const out of sieveChatStream(upstream(), { tools })) {
  const choice = out.choices[0]
  if (choice?.delta.content) console.log('content', JSON.stringify(choice.delta.content))
  for (const call of choice?.delta.tool_calls ?? []) console.log('tool_call', call.index, call.function?.name ?? '', call.function?.arguments ?? '')
  if (choice?.finish_reason) console.log('finish', choice.finish_reason)
}
