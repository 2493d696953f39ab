/**
 * What the Messages adapter checks of an upstream event before it reads it,
 * so that a malformed one is `invalid-chunk` (with `field`) and never a
 * wrong block index or a text that is not a string in its output.
 */
import { index, optionalString, record } from '../adapters/index.js'
import type { MessagesStreamEvent } from './writer.js'

/**
 * The fields of an upstream event the machine acts on, checked before it
 * reads them: block events need their `index`, a block start its
 * `content_block`, a delta its `delta` (a text block's text a string). A
 * field of the wrong shape is `invalid-chunk`; events of other types, and
 * fields not read, pass through as they came.
 */
export function checkEvent(event: unknown): asserts event is MessagesStreamEvent {
  const e = record(event, 'event')
  switch (e.type) {
    case 'content_block_start': {
      index(e.index, 'index')
      const block = record(e.content_block, 'content_block')
      if (block.type === 'text') optionalString(block.text, 'content_block.text')
      return
    }
    case 'content_block_delta': {
      index(e.index, 'index')
      const delta = record(e.delta, 'delta')
      if (delta.type === 'text_delta') optionalString(delta.text, 'delta.text')
      return
    }
    case 'content_block_stop':
      index(e.index, 'index')
      return
  }
}
