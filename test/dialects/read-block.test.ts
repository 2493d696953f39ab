/**
 * `readBlock(pack, text)` per family: what each delimited block spec reads
 * (blanks between parts as models vary them, ids, the split of the raw text
 * between calls, values typed as the sieve types them) and what it refuses,
 * naming what failed: a truncated block, text between calls, a call with no
 * name, bad JSON, a structure the pack does not write. And
 * `blockDelimiters`: which strings the engine captures between.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { formatToolCalls } from '../../src/index.js'
import { dialects } from '../../src/dialects/registry.js'
import { blockDelimiters, readBlock, type ReadCall } from '../../src/read/read-block.js'
import { inputOf } from '../helpers/read-block.js'

function read(dialect: string, text: string): ReadCall[] {
  const r = readBlock(dialects[dialect]!, text)
  if (!r.ok) throw new Error(`${dialect}: ${r.reason}`)
  return r.calls
}

const plain = (calls: ReadCall[]) => calls.map((c) => ({ name: c.name, input: inputOf(c, null) }))

describe('blockDelimiters', () => {
  it('should support literal and tag delimiters, in the pack\'s tag spelling, per block spec', () => {
    expect(blockDelimiters(dialects['glm']!)).toEqual([
      { block: 0, open: ['<tool_call>'], close: ['</tool_call>'] },
      { block: 1, open: ['<tool_call>'], close: ['</tool_call>'] },
    ])
    expect(blockDelimiters(dialects['kimi-k3']!)).toEqual([{ block: 0, open: ['<|open|>tools<|sep|>'], close: ['<|close|>tools<|sep|>'] }])
    expect(blockDelimiters(dialects['kimi-k2']!)).toEqual([
      { block: 0, open: ['<|tool_calls_section_begin|>', '<|tool_call_section_begin|>'], close: ['<|tool_calls_section_end|>', '<|tool_call_section_end|>'] },
    ])
    expect(blockDelimiters(dialects['apertus']!)).toEqual([{ block: 0, open: ['<|tools_prefix|>'], close: ['<|tools_suffix|>'] }])
  })

  it('should not support delimiters that are not literal: JSON ends, anchored blocks, envelopes, the default grammar, a call tag as its own block', () => {
    expect(blockDelimiters(dialects['pythonic']!).map((d) => d?.block ?? null)).toEqual([null, 1, 2])
    expect(blockDelimiters(dialects['phi-4-mini']!).map((d) => d?.block ?? null)).toEqual([0, null])
    expect(blockDelimiters(dialects['xlam']!).map((d) => d?.block ?? null)).toEqual([null, 1])
    expect(blockDelimiters(dialects['qwen3-coder']!).map((d) => d?.block ?? null)).toEqual([0, null])
    for (const name of ['gpt-oss', 'mistral', 'llama3-json', 'granite', 'gigachat', 'deepseek']) {
      expect(blockDelimiters(dialects[name]!).every((d) => d === null), name).toBe(true)
    }
  })
})

describe('readBlock: should support', () => {
  const cases: Array<[string, string, string, Array<{ name: string; input: Record<string, unknown> }>]> = [
    ['hermes', 'arguments serialised as a JSON string', '<tool_call>\n{"name": "f", "arguments": "{\\"a\\": [1, 2]}"}\n</tool_call>', [{ name: 'f', input: { a: [1, 2] } }]],
    ['hermes', 'LongCat\'s own tag, no blanks', '<longcat_tool_call>{"name": "f", "arguments": {"a": null}}</longcat_tool_call>', [{ name: 'f', input: { a: null } }]],
    ['glm', 'GLM-4.6 indented as vLLM\'s tests write it', '<tool_call>get_weather\n    <arg_key>city</arg_key>\n    <arg_value>Dallas</arg_value>\n    </tool_call>', [{ name: 'get_weather', input: { city: 'Dallas' } }]],
    ['glm', 'GLM-4.7 with nothing between parts, raw values typed as the sieve types them', '<tool_call>f<arg_key>n</arg_key><arg_value>42</arg_value><arg_key>ok</arg_key><arg_value>True</arg_value><arg_key>s</arg_key><arg_value> a b </arg_value><arg_key>o</arg_key><arg_value>{"k": [1]}</arg_value><arg_key>z</arg_key><arg_value>None</arg_value></tool_call>', [{ name: 'f', input: { n: 42, ok: true, s: ' a b ', o: { k: [1] }, z: null } }]],
    ['glm', 'a key given twice as a list', '<tool_call>f<arg_key>a</arg_key><arg_value>x</arg_value><arg_key>a</arg_key><arg_value>y</arg_value></tool_call>', [{ name: 'f', input: { a: ['x', 'y'] } }]],
    ['kimi-k2', 'blanks around every part, no functions. prefix, the other section spelling', '<|tool_call_section_begin|> <|tool_call_begin|> get_weather:0 <|tool_call_argument_begin|> {"city": "Tokyo"} <|tool_call_end|> <|tool_call_section_end|>', [{ name: 'get_weather', input: { city: 'Tokyo' } }]],
    ['kimi-k3', 'values typed by their type attribute', '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="s" type="string"<|sep|>42<|close|>argument<|sep|><|open|>argument key="n" type="number"<|sep|>1.5<|close|>argument<|sep|><|open|>argument key="z" type="null"<|sep|>null<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>', [{ name: 'f', input: { s: '42', n: 1.5, z: null } }]],
    ['deepseek-v3', 'V3\'s fence with CRLF and spaces', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\r\n```json\r\n{"a": 1}\r\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>g\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>', [{ name: 'f', input: { a: 1 } }, { name: 'g', input: {} }]],
    ['deepseek-v3', 'V3.1\'s calls side by side', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>foo<｜tool▁sep｜>{"x":1}<｜tool▁call▁end｜><｜tool▁call▁begin｜>bar<｜tool▁sep｜>{"y":2}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', [{ name: 'foo', input: { x: 1 } }, { name: 'bar', input: { y: 2 } }]],
    ['hunyuan', 'A13B\'s JSON array', '<tool_calls>[{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": {}}]</tool_calls>', [{ name: 'f', input: { a: 1 } }, { name: 'g', input: {} }]],
    ['hunyuan', 'HY3\'s pairs after <tool_sep>, behind A13B\'s shared opener', '<tool_calls><tool_call>f<tool_sep><arg_key>a</arg_key><arg_value>x</arg_value></tool_call><tool_call>g<tool_sep></tool_call></tool_calls>', [{ name: 'f', input: { a: 'x' } }, { name: 'g', input: {} }]],
    ['internlm', 'the arguments alias', '<|action_start|><|plugin|>\n{"name": "f", "arguments": {"a": 1}}<|action_end|>', [{ name: 'f', input: { a: 1 } }]],
    ['jamba', 'a JSON array of calls', '<tool_calls>[\n  {"name": "f", "arguments": {"a": "b"}}\n]</tool_calls>', [{ name: 'f', input: { a: 'b' } }]],
    ['minimax-m1', 'one call per line, and pretty-printed JSON over several lines', '<tool_calls>\n{"name": "f", "arguments": {"a": 1}}\n{\n  "name": "g",\n  "arguments": {}\n}\n</tool_calls>', [{ name: 'f', input: { a: 1 } }, { name: 'g', input: {} }]],
    ['phi-4-mini', 'the tool-call layout', '<|tool_call|>{"name": "f", "arguments": {"a": true}}<|/tool_call|>', [{ name: 'f', input: { a: true } }]],
    ['pythonic', 'OLMo 3\'s calls on lines', "<function_calls>f(a='it\\'s', n=3, t=(1, 2))\ng()</function_calls>", [{ name: 'f', input: { a: "it's", n: 3, t: [1, 2] } }, { name: 'g', input: {} }]],
    ['pythonic', 'LFM2\'s list, nested literals', "<|tool_call_start|>[f(d={'k': None, 'l': [True, 1.5]}), g(s=\"x\")]<|tool_call_end|>", [{ name: 'f', input: { d: { k: null, l: [true, 1.5] } } }, { name: 'g', input: { s: 'x' } }]],
    ['step3', 'with and without function<｜tool_sep｜>', '<｜tool_calls_begin｜>\n<｜tool_call_begin｜><steptml:invoke name="f">\n<steptml:parameter name="a">1</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="g"></steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>', [{ name: 'f', input: { a: 1 } }, { name: 'g', input: {} }]],
    ['xlam', 'the tool-call layout', '<tool_call>[{"name": "f", "arguments": {}}]</tool_call>', [{ name: 'f', input: {} }]],
    ['apertus', 'a block whose optional closer never came', '<|tools_prefix|>[{"f": {"a": 1}}]', [{ name: 'f', input: { a: 1 } }]],
    ['gemma4', 'nested literals, the pack\'s None and JSON\'s null', '<|tool_call>call:f{a:<|"|>x, "y"<|"|>,b:{c:[1,true,None,null,-2.5e3]}}<tool_call|>', [{ name: 'f', input: { a: 'x, "y"', b: { c: [1, true, null, null, -2500] } } }]],
  ]
  for (const [dialect, what, text, calls] of cases) {
    it(`should support ${dialect}: ${what}`, () => {
      expect(plain(read(dialect, text))).toEqual(calls)
    })
  }

  it('should support ids where the pack carries them', () => {
    expect(read('kimi-k2', '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>b:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>').map((c) => c.id)).toEqual(['functions.a:0', 'b:1'])
    expect(read('kimi-k3', '<|open|>tools<|sep|><|open|>call tool="f" index="7"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>')[0]!.id).toBe('7')
    expect(read('hermes', '<tool_call>{"name": "f", "arguments": {}}</tool_call>')[0]).not.toHaveProperty('id')
  })

  it('should support arguments in the order they were written', () => {
    const keys = (dialect: string, text: string) => read(dialect, text)[0]!.params!.map(([k]) => k)
    expect(keys('gemma4', '<|tool_call>call:f{b:1,a:2,c:3}<tool_call|>')).toEqual(['b', 'a', 'c'])
    expect(keys('glm', '<tool_call>f<arg_key>2</arg_key><arg_value>x</arg_value><arg_key>1</arg_key><arg_value>y</arg_value></tool_call>')).toEqual(['2', '1'])
    expect(keys('pythonic', '<function_calls>f(z=1, a=2)</function_calls>')).toEqual(['z', 'a'])
  })

  it('should support the raw text split between calls at their ends, the closer going with the last', () => {
    const text = formatToolCalls([{ name: 'a', input: { x: 1 } }, { name: 'b', input: {} }], { dialect: 'kimi-k2' })
    const [first, second] = read('kimi-k2', text)
    expect(text.slice(0, first!.end)).toBe('<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x": 1}<|tool_call_end|>')
    expect(text.slice(first!.end, second!.end)).toBe('<|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>')
    expect(second!.end).toBe(text.length)
  })

  it('should support numbers as written, and the schema deciding what a raw value is', () => {
    const [json] = read('hermes', '<tool_call>{"name": "f", "arguments": {"f": 1.0, "big": 12345678901234567890}}</tool_call>')
    const schema = { type: 'object', properties: { f: { type: 'string' }, big: { type: 'string' } } }
    expect(inputOf(json!, schema)).toEqual({ f: '1.0', big: '12345678901234567890' })
    expect(inputOf(json!, null)).toEqual({ f: 1, big: 12345678901234567890 })
    const [raw] = read('glm', '<tool_call>f<arg_key>v</arg_key><arg_value>1.0</arg_value></tool_call>')
    expect(inputOf(raw!, { type: 'object', properties: { v: { type: 'string' } } })).toEqual({ v: '1.0' })
    expect(inputOf(raw!, null)).toEqual({ v: 1 })
    expect(raw!.params).toEqual([['v', { kind: 'text', text: '1.0', literal: true }]])
    expect(json!.params).toBeNull()
  })
})

describe('readBlock: should not support', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    ['hermes', 'a truncated block (no closer)', '<tool_call>\n{"name": "f", "arguments": {"a": 1}}', /does not end with its closer/],
    ['kimi-k2', 'a block cut inside a call', '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"a": <|tool_calls_section_end|>', /call 1's arguments .* not complete JSON/],
    ['kimi-k2', 'text between calls', '<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{}<|tool_call_end|> junk <|tool_call_begin|>functions.b:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>', /opener of call 2.*junk/],
    ['minimax-m1', 'text between JSON lines', '<tool_calls>\n{"name": "f", "arguments": {}}\nand then\n{"name": "g", "arguments": {}}\n</tool_calls>', /call 2 .*not complete JSON|and then/],
    ['jamba', 'a list item that is no call', '<tool_calls>[{"name": "f", "arguments": {}}, "g"]</tool_calls>', /call 2 is not a JSON object/],
    ['pythonic', 'prose after a Python call', '<function_calls>f(a=1) and more</function_calls>', /call 2's callee and/],
    ['hermes', 'a call with no name', '<tool_call>{"arguments": {"a": 1}}</tool_call>', /call 1 has no name/],
    ['hermes', 'a call whose name is not a string', '<tool_call>{"name": 7, "arguments": {}}</tool_call>', /call 1 has no name/],
    ['hermes', 'a call with no arguments field', '<tool_call>{"name": "f"}</tool_call>', /no "arguments" field/],
    ['step3', 'an invoke with no name attribute', '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke><steptml:parameter name="a">1</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>', /call 1 has no name/],
    ['glm', 'a call with no head', '<tool_call><arg_key>a</arg_key><arg_value>1</arg_value></tool_call>', /call 1 has no name/],
    ['glm', 'a head the name pattern refuses', '<tool_call>get weather<arg_key>a</arg_key><arg_value>1</arg_value></tool_call>', /not the pack's name pattern/],
    ['apertus', 'a call object with two keys', '<|tools_prefix|>[{"f": {}, "g": {}}]<|tools_suffix|>', /2 keys/],
    ['hermes', 'bad JSON', '<tool_call>{"name": "f", "arguments": {"a": 1,}}</tool_call>', /not valid JSON/],
    ['deepseek-v3', 'a trailing comma in V3.1\'s arguments', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1,}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', /not valid JSON/],
    ['hermes', 'arguments that are no object', '<tool_call>{"name": "f", "arguments": [1]}</tool_call>', /an array, not an object/],
    ['hermes', 'serialised arguments holding no object', '<tool_call>{"name": "f", "arguments": "[1]"}</tool_call>', /does not hold a JSON object/],
    ['hermes', 'the name written twice (JSON.parse keeps the last, other parsers the first)', '<tool_call>{"name": "f", "arguments": {}, "name": "g"}</tool_call>', /key "name" twice/],
    ['hermes', 'the arguments written twice', '<tool_call>{"name": "f", "arguments": {"a": 1}, "arguments": {"b": 2}}</tool_call>', /key "arguments" twice/],
    ['hermes', 'an argument written twice', '<tool_call>{"name": "f", "arguments": {"a": 1, "a": 2}}</tool_call>', /key "a" twice/],
    ['hermes', 'a key written twice deep in an argument', '<tool_call>{"name": "f", "arguments": {"a": [{"b": 1, "b": 2}]}}</tool_call>', /key "b" twice/],
    ['hermes', 'an argument written twice in serialised arguments', '<tool_call>{"name": "f", "arguments": "{\\"a\\": 1, \\"a\\": 2}"}</tool_call>', /key "a" twice/],
    ['internlm', 'the name written twice', '<|action_start|><|plugin|>{"name": "f", "parameters": {}, "name": "g"}<|action_end|>', /key "name" twice/],
    ['jamba', 'a list item with its name written twice', '<tool_calls>[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}, "name": "h"}]</tool_calls>', /call 2 .*key "name" twice/],
    ['kimi-k2', 'an argument written twice', '<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"a": 1, "a": 2}<|tool_call_end|><|tool_calls_section_end|>', /key "a" twice/],
    ['deepseek-v3', 'an argument written twice in V3.1\'s arguments', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1, "a": 2}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', /key "a" twice/],
    ['kimi-k3', 'an object value with a key written twice', '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="o" type="object"<|sep|>{"a": 1, "a": 2}<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>', /key "a" twice/],
    ['hermes', 'a field the pack does not write', '<tool_call>{"name": "f", "arguments": {}, "extra": 1}</tool_call>', /field "extra"/],
    ['internlm', 'the arguments twice, under the field and its alias', '<|action_start|><|plugin|>{"name": "f", "parameters": {}, "arguments": {}}<|action_end|>', /arguments twice/],
    ['kimi-k3', 'an attribute the pack does not write', '<|open|>tools<|sep|><|open|>call tool="f" index="1" x="2"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>', /attribute x/],
    ['kimi-k3', 'a value that is not the type its attribute names', '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="n" type="number"<|sep|>ten<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>', /typed number/],
    ['kimi-k3', 'a type the pack does not name', '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="n" type="int"<|sep|>1<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>', /type "int"/],
    ['deepseek-v3', 'V3 arguments without their fence (nor V3.1\'s head)', '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{"a": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>', /v3: expected the fence/],
    ['pythonic', 'a positional argument', '<function_calls>f(1)</function_calls>', /expected a keyword argument/],
    ['pythonic', 'a keyword given twice', '<function_calls>f(a=1, a=2)</function_calls>', /given twice/],
    ['pythonic', 'an expression where a literal goes', '<function_calls>f(a=os.system("x"))</function_calls>', /not a Python literal/],
    ['gemma4', 'an unquoted string', '<|tool_call>call:f{a:x}<tool_call|>', /expected a value/],
    ['gemma4', 'a string left open', '<|tool_call>call:f{a:<|"|>x}<tool_call|>', /not closed/],
    ['glm', 'text before the closer', '<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value>tail</tool_call>', /before the block's closer/],
    ['glm', 'text between a key and its value', '<tool_call>f<arg_key>a</arg_key>junk<arg_value>1</arg_value></tool_call>', /<arg_value>.*junk/],
    ['kimi-k2', 'a block with no call', '<|tool_calls_section_begin|> <|tool_calls_section_end|>', /holds no call/],
    ['hunyuan', 'an empty list of calls', '<tool_calls>[]</tool_calls>', /a13b: the block holds no call/],
    ['hermes', 'another family\'s block under a shared opener', '<tool_call>get_weather\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n</tool_call>', /not complete JSON|not valid JSON/],
    ['glm', 'a Hermes call under the shared opener', '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', /name pattern/],
    ['hermes', 'text that does not start with an opener', 'Sure. <tool_call>{"name": "f", "arguments": {}}</tool_call>', /does not start with an opener/],
    ['glm', 'a longer tag that only starts like the opener', '<tool_calls>f</tool_call>', /does not start with an opener|expected the tag/],
    ['hermes', 'empty text', '', /does not start with an opener/],
    ['gpt-oss', 'a pack whose blocks are framed by an envelope', '<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>', /gpt-oss dialect has no block delimited/],
  ]
  for (const [dialect, what, text, reason] of cases) {
    it(`should not support ${dialect}: ${what}`, () => {
      const r = readBlock(dialects[dialect]!, text)
      expect(r.ok).toBe(false)
      if (!r.ok) expect(r.reason).toMatch(reason)
    })
  }
})

describe('readBlock: never throws', () => {
  const packs = Object.values(dialects)
  const openers = packs.flatMap((p) => blockDelimiters(p).flatMap((d) => (d === null ? [] : d.open)))
  const closers = packs.flatMap((p) => blockDelimiters(p).flatMap((d) => (d === null ? [] : d.close)))
  const token = fc.constantFrom(...openers, ...closers, '{', '}', '[', ']', '"', "'", ',', ':', '=', '(', ')', '<', '>', '\\', '\n', ' ', '<|"|>', 'name', 'arguments', 'f', '1', 'True', 'None', '<arg_key>', '<arg_value>', '<｜tool▁sep｜>', '```json')

  it('should not support arbitrary text as calls, nor throw on it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...packs), fc.constantFrom('', ...openers), fc.array(fc.oneof(fc.string(), token), { maxLength: 12 }), fc.constantFrom('', ...closers), (pack, open, parts, close) => {
        const r = readBlock(pack, open + parts.join('') + close)
        if (r.ok) expect(r.calls.length).toBeGreaterThan(0)
      }),
      { numRuns: 3000 },
    )
  })

  it('should support every mutation of a real block without throwing: refused with a reason, or calls ending in order', () => {
    const blocks = packs.flatMap((pack) =>
      blockDelimiters(pack).flatMap((d) => {
        if (d === null) return []
        const variant = pack.blocks[d.block]!.name
        return [{ pack, text: formatToolCalls([{ name: 'get_weather', input: { city: 'Paris', n: [1, { a: null }], ok: true } }, { name: 'ping', input: {} }], { dialect: pack, variant }) }]
      }),
    )
    const mutation = fc.record({ at: fc.nat(), len: fc.nat({ max: 8 }), insert: fc.oneof(fc.constant(''), fc.string({ maxLength: 4 }), token) })
    fc.assert(
      fc.property(fc.constantFrom(...blocks), fc.array(mutation, { minLength: 1, maxLength: 3 }), ({ pack, text }, edits) => {
        let t = text
        for (const e of edits) {
          const at = e.at % (t.length + 1)
          t = t.slice(0, at) + e.insert + t.slice(at + e.len)
        }
        const r = readBlock(pack, t)
        if (!r.ok) expect(r.reason.length).toBeGreaterThan(10)
        else {
          expect(r.calls.length).toBeGreaterThan(0)
          r.calls.forEach((c, i) => expect(c.end).toBeGreaterThan(i === 0 ? 0 : r.calls[i - 1]!.end))
          expect(r.calls.at(-1)!.end).toBe(t.length)
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('should support deep nesting and long blocks without taking the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    expect(readBlock(dialects['hermes']!, `<tool_call>{"name": "f", "arguments": {"a": ${deep}}}</tool_call>`).ok).toBe(true)
    expect(readBlock(dialects['gemma4']!, `<|tool_call>call:f{a:${deep}}<tool_call|>`)).toMatchObject({ ok: false, reason: expect.stringMatching(/deeper than/) })
    expect(readBlock(dialects['pythonic']!, `<function_calls>f(a=${deep})</function_calls>`).ok).toBe(false)
    const many = Array.from({ length: 20_000 }, (_, i) => `<|tool_call_begin|>functions.f:${i}<|tool_call_argument_begin|>{"i": ${i}}<|tool_call_end|>`).join('')
    const r = readBlock(dialects['kimi-k2']!, `<|tool_calls_section_begin|>${many}<|tool_calls_section_end|>`)
    expect(r.ok && r.calls.length).toBe(20_000)
  })
})
