/**
 * A key written twice in one JSON object: `parseJson` reads the value as
 * `JSON.parse` does (the last one counts) and says which key it was
 * (`JsonResult.duplicate`), because other parsers keep the first or refuse
 * the text. The readers of calls refuse such a call (`src/read/`, rule 6's
 * JSON body); a value elsewhere is read as before.
 */
import { describe, expect, it } from 'vitest'
import { parseJson } from '../../src/values/json.js'

describe('JSON keys written twice', () => {
  it('should support reporting a key written twice, the value read as JSON.parse reads it', () => {
    for (const [text, key] of [
      ['{"name": "f", "arguments": {}, "name": "g"}', 'name'],
      ['{"a": {"b": 1, "b": 2}}', 'b'],
      ['[{"x": 1}, {"y": 1, "y": 2}]', 'y'],
      ['{"__proto__": 1, "__proto__": 2}', '__proto__'],
      // the first key found twice, as the values complete: the inner object completes first
      ['{"a": 1, "a": {"b": 1, "b": 2}}', 'b'],
    ] as const) {
      const r = parseJson(text)
      expect(r.ok && r.duplicate, text).toBe(key)
      // the value is JSON.parse's (numbers aside, which parseJson keeps with their digits)
      if (r.ok) expect(JSON.stringify(r.value), text).toBe(JSON.stringify(JSON.parse(text)))
    }
  })

  it('should not support reporting the same key in different objects, or a key and a string value alike', () => {
    for (const text of ['{"a": {"a": 1}}', '[{"a": 1}, {"a": 2}]', '{"a": "a", "b": ["a", "a"]}', '{}', '"a"']) {
      const r = parseJson(text)
      expect(r.ok, text).toBe(true)
      expect(r.ok && r.duplicate, text).toBeUndefined()
    }
  })
})
