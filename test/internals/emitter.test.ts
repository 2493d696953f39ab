/**
 * White-box: the emitter (src/sieve/emitter.ts) gives a run's text as one
 * slice of the run's source where it can. A block the run read and released
 * as text continues that source, so it joins the slice instead of being a
 * piece of its own; anything else stays a piece. Either way the event's
 * characters, and the count of characters given out, are the same.
 */
import { describe, expect, it } from 'vitest'
import { Emitter } from '../../src/sieve/emitter.js'

const src = 'prose <invoke name="a"> then more prose'

describe('emitter', () => {
  it('should support text that continues the slice being grown: one event, the source\'s characters', () => {
    const e = new Emitter()
    e.slice(src, 0, 6)
    e.text(src.substring(6, 23))
    e.slice(src, 23, src.length)
    expect(e.take()).toEqual([{ type: 'text', text: src }])
    expect(e.emitted).toBe(src.length)
  })

  it('should support text that does not continue the slice: the slice, then the text', () => {
    const e = new Emitter()
    e.slice(src, 0, 6)
    e.text('<other>')
    e.slice(src, 23, 28)
    expect(e.take()).toEqual([{ type: 'text', text: 'prose <other> then' }])
    expect(e.emitted).toBe(6 + 7 + 5)
  })

  it('should not support growing a slice past its source: a text longer than what is left is a piece of its own', () => {
    const e = new Emitter()
    e.slice(src, 0, src.length - 5)
    e.text('prose and more')
    expect(e.take()).toEqual([{ type: 'text', text: src.substring(0, src.length - 5) + 'prose and more' }])
  })

  it('should support an event between texts: the slice before it is its own text event', () => {
    const e = new Emitter()
    e.slice(src, 0, 6)
    e.event({ type: 'diagnostic', code: 'malformed-block', message: 'm', span: { start: 6, end: 23 } })
    e.text(src.substring(6, 23))
    const out = e.take()
    expect(out.map((x) => x.type)).toEqual(['text', 'diagnostic', 'text'])
    expect(out[0]).toEqual({ type: 'text', text: 'prose ' })
    expect(out[2]).toEqual({ type: 'text', text: '<invoke name="a">' })
  })
})
