/**
 * Two text parts of a Responses stream open at once, both holding text
 * (`a <｜DSML｜too`, a possible tag start), and an event of another item
 * passed through: it stands between what each part sent before it and what
 * it sends after it, whichever part gives out its held text first. A part
 * that first opens after the event, while another part's held text still
 * keeps it waiting, is after it too.
 */
import { describe, expect, it } from 'vitest'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import { sieveResponsesStream } from '../../src/openai/index.js'
import { held } from './choices-helpers.js'
import { collect, counter, iterate } from './openai-helpers.js'
import { messageOpened, textDelta } from './openai-responses-helpers.js'

describe('sieveResponsesStream, two text parts holding text: an event passed through keeps its place in each', () => {
  type Event = Record<string, unknown> & { type: string }
  const search: Event = { type: 'response.output_item.added', output_index: 2, item: { type: 'web_search_call', id: 'ws_1', status: 'in_progress' } }

  const sieved = async (events: Event[]) => (await collect(sieveResponsesStream(iterate(events.map((e, i) => ({ ...e, sequence_number: i })) as unknown as ResponseStreamEvent[]), { generateId: counter() }))) as unknown as Event[]
  const storyOf = (out: Event[]) => (id: string) =>
    out
      .map((e) => (e.type === 'response.output_item.added' && (e.item as { id: string }).id === 'ws_1' ? '[ws]' : e.type === 'response.output_text.delta' && e.item_id === id ? (e.delta as string) : ''))
      .join('')

  it('should support an event of another item between what each part sent before and after it', async () => {
    const out = await sieved([...messageOpened('msg_1', 0), textDelta('msg_1', 0, held('a')), ...messageOpened('msg_2', 1), textDelta('msg_2', 1, held('b')), search, textDelta('msg_1', 0, 'k A2'), textDelta('msg_2', 1, 'k B2')])
    const partStory = storyOf(out)
    expect(partStory('msg_1')).toBe(`${held('a')}[ws]k A2`)
    expect(partStory('msg_2')).toBe(`${held('b')}[ws]k B2`)
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i))
  })

  it('should support a part that first opens after the event going out after it, behind the text another part still held', async () => {
    const out = await sieved([...messageOpened('msg_1', 0), textDelta('msg_1', 0, held('a')), search, ...messageOpened('msg_2', 1), textDelta('msg_2', 1, 'B first'), textDelta('msg_1', 0, 'k A2'), textDelta('msg_2', 1, ' B2')])
    const partStory = storyOf(out)
    expect(partStory('msg_1')).toBe(`${held('a')}[ws]k A2`)
    expect(partStory('msg_2')).toBe('[ws]B first B2')
    // the late part's message item is added after the event, at the output index that follows it
    const added = out.filter((e) => e.type === 'response.output_item.added').map((e) => [(e.item as { id: string }).id, e.output_index])
    expect(added).toEqual([['msg_1', 0], ['ws_1', 1], ['msg_2', 2]])
    expect(out.map((e) => e.sequence_number)).toEqual(out.map((_, i) => i))
  })
})
