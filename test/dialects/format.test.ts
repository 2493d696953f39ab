/**
 * `formatToolCalls(calls, { dialect })`: every pack writes its family's
 * markup (the rendered round trip checks the templates byte for byte; these
 * pin each block variant, the value rules and the refusals), and the
 * `deepseek` pack, written by the same interpreter as every other, gives
 * exactly what the default DSML writer gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDeepStrictEqual } from 'node:util'
import { dialects, formatToolCalls, parseToolCalls, ToolsieveError } from '../../src/index.js'
import type { DialectPack } from '../../src/dialects/types.js'
import { spellingOf } from '../../src/dialects/spelling.js'

const calls = [
  { name: 'get_weather', input: { city: 'Paris', days: 3, metric: true } },
  { name: 'ping', input: {} },
]

function err(f: () => unknown): [string, string | undefined] {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    return [(e as ToolsieveError).code, (e as ToolsieveError).field]
  }
  return ['no error', undefined]
}

/** Two calls in every block of every pack. */
const EXPECTED: Array<[string, string, string]> = [
    ["apertus", "tools", "<|tools_prefix|>[{\"get_weather\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"ping\": {}}]<|tools_suffix|>"],
    ["deepseek-v3", "v3", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{\"city\": \"Paris\", \"days\": 3, \"metric\": true}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>ping\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>"],
    ["deepseek-v3", "v3.1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{\"city\": \"Paris\", \"days\": 3, \"metric\": true}<｜tool▁call▁end｜><｜tool▁call▁begin｜>ping<｜tool▁sep｜>{}<｜tool▁call▁end｜><｜tool▁calls▁end｜>"],
    ["deepseek", "dsml", "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">3</｜DSML｜parameter>\n<｜DSML｜parameter name=\"metric\" string=\"false\">true</｜DSML｜parameter>\n</｜DSML｜invoke>\n<｜DSML｜invoke name=\"ping\">\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"],
    ["gemma4", "tool-call", "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>,days:3,metric:true}<tool_call|><|tool_call>call:ping{}<tool_call|>"],
    ["gigachat", "function-call", "<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}<|message_sep|>\n\nfunction call<|role_sep|>\n{\"name\": \"ping\", \"arguments\": {}}"],
    ["glm", "glm-4.6", "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n<arg_key>metric</arg_key>\n<arg_value>true</arg_value>\n</tool_call>\n<tool_call>ping\n</tool_call>"],
    ["glm", "glm-4.7", "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value><arg_key>metric</arg_key><arg_value>true</arg_value></tool_call><tool_call>ping</tool_call>"],
    ["gpt-oss", "message", "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\", \"days\": 3, \"metric\": true}<|call|><|start|>assistant to=functions.ping<|channel|>commentary json<|message|>{}<|call|>"],
    ["granite", "granite-3.1", "<tool_call>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]"],
    ["granite", "granite-3.0", "<|tool_call|>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]"],
    ["granite", "20b-fc", "<function_call> {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}} <function_call> {\"name\": \"ping\", \"arguments\": {}}"],
    ["hermes", "tool-call", "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}\n</tool_call>\n<tool_call>\n{\"name\": \"ping\", \"arguments\": {}}\n</tool_call>"],
    ["hermes", "longcat", "<longcat_tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}</longcat_tool_call>\n<longcat_tool_call>{\"name\": \"ping\", \"arguments\": {}}</longcat_tool_call>"],
    ["hunyuan", "a13b", "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]</tool_calls>"],
    ["hunyuan", "hy3", "<tool_calls><tool_call>get_weather<tool_sep><arg_key>city</arg_key><arg_value>Paris</arg_value><arg_key>days</arg_key><arg_value>3</arg_value><arg_key>metric</arg_key><arg_value>true</arg_value></tool_call><tool_call>ping<tool_sep></tool_call></tool_calls>"],
    ["internlm", "action", "<|action_start|><|plugin|>\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}<|action_end|>\n<|action_start|><|plugin|>\n{\"name\": \"ping\", \"parameters\": {}}<|action_end|>"],
    ["jamba", "tool-calls", "<tool_calls>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]</tool_calls>"],
    ["kimi-k2", "section", "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\", \"days\": 3, \"metric\": true}<|tool_call_end|><|tool_call_begin|>functions.ping:1<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>"],
    ["kimi-k3", "tools", "<|open|>tools<|sep|><|open|>call tool=\"get_weather\" index=\"1\"<|sep|><|open|>argument key=\"city\" type=\"string\"<|sep|>Paris<|close|>argument<|sep|><|open|>argument key=\"days\" type=\"number\"<|sep|>3<|close|>argument<|sep|><|open|>argument key=\"metric\" type=\"boolean\"<|sep|>true<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool=\"ping\" index=\"2\"<|sep|><|close|>call<|sep|><|close|>tools<|sep|>"],
    ["llama3-json", "json", "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}; {\"name\": \"ping\", \"parameters\": {}}"],
    ["minimax-m1", "tool-calls", "<tool_calls>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}\n{\"name\": \"ping\", \"arguments\": {}}\n</tool_calls>"],
    ["minimax-m2", "minimax-tool-call", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n<parameter name=\"days\">3</parameter>\n<parameter name=\"metric\">true</parameter>\n</invoke>\n<invoke name=\"ping\">\n</invoke>\n</minimax:tool_call>"],
    ["mistral", "v11", "[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\", \"days\": 3, \"metric\": true}[TOOL_CALLS]ping[ARGS]{}"],
    ["mistral", "array", "[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}, \"id\": \"000000000\"}, {\"name\": \"ping\", \"arguments\": {}, \"id\": \"000000001\"}]"],
    ["phi-4-mini", "tool-call", "<|tool_call|>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}<|/tool_call|><|tool_call|>{\"name\": \"ping\", \"arguments\": {}}<|/tool_call|>"],
    ["phi-4-mini", "functools", "functools[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]"],
    ["pythonic", "list", "[get_weather(city='Paris', days=3, metric=True), ping()]"],
    ["pythonic", "olmo3", "<function_calls>get_weather(city='Paris', days=3, metric=True)\nping()</function_calls>"],
    ["pythonic", "lfm2", "<|tool_call_start|>[get_weather(city='Paris', days=3, metric=True), ping()]<|tool_call_end|>"],
    ["qwen3-coder", "tool-call", "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=ping>\n</function>\n</tool_call>"],
    ["qwen3-coder", "bare", "<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n</function>\n<function=ping>\n</function>"],
    ["seed-oss", "seed-tool-call", "<seed:tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n<parameter=days>3</parameter>\n<parameter=metric>True</parameter>\n</function>\n</seed:tool_call>\n<seed:tool_call>\n<function=ping>\n</function>\n</seed:tool_call>"],
    ["step3", "steptml", "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"get_weather\">\n<steptml:parameter name=\"city\">Paris</steptml:parameter>\n<steptml:parameter name=\"days\">3</steptml:parameter>\n<steptml:parameter name=\"metric\">true</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"ping\">\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"],
    ["xlam", "array", "[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]"],
    ["xlam", "tool-call", "<tool_call>[{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3, \"metric\": true}}, {\"name\": \"ping\", \"arguments\": {}}]</tool_call>"],
]

describe('formatToolCalls with a dialect', () => {
  for (const [dialect, variant, expected] of EXPECTED) {
    it(`should support ${dialect} (${variant}): two calls as the family writes them`, () => {
      expect(formatToolCalls(calls, { dialect, variant })).toBe(expected)
    })
  }

  it('should support every block of every pack in the table above', () => {
    const listed = EXPECTED.map(([d, v]) => `${d}/${v}`)
    expect(Object.values(dialects).flatMap((p) => p.blocks.map((b) => `${p.name}/${b.name}`))).toEqual(listed)
  })

  it("should support a pack's first block by default", () => {
    for (const pack of Object.values(dialects)) expect(formatToolCalls(calls, { dialect: pack.name })).toBe(formatToolCalls(calls, { dialect: pack.name, variant: pack.blocks[0]!.name }))
  })

  it('should support a pack given as data', () => {
    const pack = structuredClone(dialects.hermes) as DialectPack
    expect(formatToolCalls(calls, { dialect: pack })).toBe(formatToolCalls(calls, { dialect: 'hermes' }))
  })

  it('should support { name, arguments } calls and leave out undefined values, as JSON does', () => {
    expect(formatToolCalls([{ name: 'f', arguments: '{"a":1}' }], { dialect: 'hermes' })).toBe('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>')
    expect(formatToolCalls([{ name: 'f', input: { a: undefined, b: [undefined] } }], { dialect: 'llama3-json' })).toBe('{"name": "f", "parameters": {"b": [null]}}')
  })

  it("should support Python's number spelling where the template is Python's", () => {
    expect(formatToolCalls([{ name: 'f', input: { x: 1e-7, y: 1e21 } }], { dialect: 'hermes' })).toContain('{"x": 1e-07, "y": 1e+21}')
    expect(formatToolCalls([{ name: 'f', input: { x: 1e-7 } }], { dialect: 'deepseek' })).toContain('>1e-7<')
  })

  it('should support the values the rendered templates taught: Python literals, raw strings, quote tokens, type attributes', () => {
    const input = { s: "it's", n: null, t: true, o: { k: [false, null] } }
    expect(formatToolCalls([{ name: 'f', input }], { dialect: 'seed-oss' })).toContain(`<parameter=s>it's</parameter>\n<parameter=n>None</parameter>\n<parameter=t>True</parameter>\n<parameter=o>{'k': [False, None]}</parameter>`)
    expect(formatToolCalls([{ name: 'f', input }], { dialect: 'qwen3-coder' })).toContain('<parameter=o>\n{"k": [false, null]}\n</parameter>')
    expect(formatToolCalls([{ name: 'f', input }], { dialect: 'gemma4' })).toBe(`<|tool_call>call:f{n:None,o:{k:[false,None]},s:<|"|>it's<|"|>,t:true}<tool_call|>`)
    expect(formatToolCalls([{ name: 'f', input: { n: 1, o: [1] } }], { dialect: 'kimi-k3' })).toContain('key="n" type="number"<|sep|>1<|close|>argument<|sep|><|open|>argument key="o" type="array"')
    expect(formatToolCalls([{ name: 'f', input: { s: 'a"b\'c' } }], { dialect: 'pythonic' })).toBe(`[f(s='a"b\\'c')]`)
  })

  it('should support call ids: given, made from the template, cut to the length the template keeps', () => {
    expect(formatToolCalls([{ name: 'f', id: 'functions.f:7', input: {} }], { dialect: 'kimi-k2' })).toContain('<|tool_call_begin|>functions.f:7<|tool_call_argument_begin|>')
    expect(formatToolCalls([{ name: 'f', id: 'call_abcdefghijkl', input: {} }], { dialect: 'mistral', variant: 'array' })).toBe('[TOOL_CALLS] [{"name": "f", "arguments": {}, "id": "defghijkl"}]')
    expect(formatToolCalls([{ name: 'f', input: {} }], { dialect: 'mistral', variant: 'array' })).toContain('"id": "000000000"')
    // an id from another provider would read as the name: the pack's own head is written instead
    expect(formatToolCalls([{ name: 'f', id: 'call_abc', input: {} }, { name: 'g', id: 'functions.g:1', input: {} }], { dialect: 'kimi-k2' })).toContain('functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_call_begin|>functions.g:1<')
  })

  it("should support Kimi K3's index written from the call's place, whatever id the call has (its template writes loop.index)", () => {
    const written = formatToolCalls([{ name: 'f', id: 'call_0123456789abcdef01234567', input: {} }, { name: 'g', id: 'functions.g:4', input: {} }], { dialect: 'kimi-k3' })
    expect(written).toContain('<|open|>call tool="f" index="1"<|sep|>')
    expect(written).toContain('<|open|>call tool="g" index="2"<|sep|>')
    expect(written).not.toContain('call_0123')
  })

  it('should support JSON values holding a closer: its first character escaped, so the block still ends where it should', () => {
    const out = formatToolCalls([{ name: 'f', input: { html: 'a</tool_call>b' } }], { dialect: 'hermes' })
    expect(out).toBe('<tool_call>\n{"name": "f", "arguments": {"html": "a\\u003c/tool_call>b"}}\n</tool_call>')
    expect(JSON.parse(out.slice('<tool_call>\n'.length, -'\n</tool_call>'.length)).arguments.html).toBe('a</tool_call>b')
  })

  it('should support no calls: an empty block for a wrapper, nothing for one block per call', () => {
    expect(formatToolCalls([], { dialect: 'minimax-m2' })).toBe('<minimax:tool_call>\n</minimax:tool_call>')
    expect(formatToolCalls([], { dialect: 'hermes' })).toBe('')
  })
})

describe('formatToolCalls with the deepseek pack', () => {
  const value = fc.oneof(fc.string(), fc.string({ unit: fc.constantFrom('<', '/', '｜', 'D', 'S', 'M', 'L', 'p', 'a', 'r', 'm', 'e', 't', '>', '"', '&', ']]>', '\n', ' ', '＜') }), fc.jsonValue(), fc.constant(undefined))
  const call = fc.record({ name: fc.string({ minLength: 1 }), input: fc.dictionary(fc.string({ minLength: 1 }), value) })

  it('should support exactly the default DSML writer\'s output, for any calls', () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 3 }), (cs) => {
        expect(formatToolCalls(cs, { dialect: 'deepseek' })).toBe(formatToolCalls(cs))
      }),
      { numRuns: 300 },
    )
  })

  it('should support the same refusals as the default writer', () => {
    for (const bad of [[{ name: '', input: {} }], [{ name: 'f', input: { '': 1 } }], [{ name: 'f' }], [{ name: 'f', input: { a: 1n } }]]) {
      expect(err(() => formatToolCalls(bad as never, { dialect: 'deepseek' }))).toEqual(err(() => formatToolCalls(bad as never)))
    }
  })
})

describe('formatToolCalls refusing what no reader could give back', () => {
  it('should not support a raw value holding its own closer', () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x</parameter>y' } }], { dialect: 'minimax-m2' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x</arg_value>' } }], { dialect: 'glm' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x<|close|>argument<|sep|>' } }], { dialect: 'kimi-k3' }))).toEqual(['invalid-option', 'calls[0].input'])
  })

  it('should not support a value that would open the next implicitly closed element', () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'see <parameter=b>' } }], { dialect: 'qwen3-coder' }))).toEqual(['invalid-option', 'calls[0].input'])
  })

  it('should not support a string holding the quote token, or a key a bare-key literal cannot spell', () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x<|"|>y' } }], { dialect: 'gemma4' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { 'a b': 1 } }], { dialect: 'gemma4' }))).toEqual(['invalid-option', 'calls[0].input'])
  })

  it("should refuse a Gemma 4 string holding the call's closer, at which its reader ends the call", () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'a<tool_call|>b' } }], { dialect: 'gemma4' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: { b: ['<tool_call|>'] } } }], { dialect: 'gemma4' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(() => formatToolCalls([{ name: 'f', input: { a: 'a<tool_call|>b' } }], { dialect: 'gemma4' })).toThrow('calls[0].input.a holds "<tool_call|>", which ends the call in dialect "gemma4"')
  })

  it("should refuse a raw value or key holding its block's closer, at which the reader ends the block", () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x</tool_call>y' } }], { dialect: 'glm' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { 'k</tool_call>': 1 } }], { dialect: 'glm' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x<｜tool_calls_end｜>' } }], { dialect: 'step3' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { a: 'x<|close|>tools<|sep|>' } }], { dialect: 'kimi-k3' }))).toEqual(['invalid-option', 'calls[0].input'])
  })

  it("should support a JSON or Python string holding another spelling of the pack's closer, escaped", () => {
    // Kimi-K2 reads <|tool_call_section_end|> as its closer too; the LFM2 block of pythonic ends at <|tool_call_end|>
    expect(formatToolCalls([{ name: 'f', input: { a: 'x<|tool_call_section_end|>' } }], { dialect: 'kimi-k2' })).toContain('"x\\u003c|tool_call_section_end|>"')
    expect(formatToolCalls([{ name: 'f', input: { a: 'x<|tool_call_end|>' } }], { dialect: 'pythonic', variant: 'lfm2' })).toContain("f(a='x\\x3c|tool_call_end|>')")
  })

  it('should not support a key or callee that is not Python', () => {
    expect(err(() => formatToolCalls([{ name: 'f', input: { 'a-b': 1 } }], { dialect: 'pythonic' }))).toEqual(['invalid-option', 'calls[0].input'])
    expect(err(() => formatToolCalls([{ name: 'get-weather', input: {} }], { dialect: 'pythonic' }))).toEqual(['invalid-option', 'calls[0].name'])
  })

  it("should not support a name the pack's own head pattern would not read back", () => {
    expect(err(() => formatToolCalls([{ name: 'get weather', input: {} }], { dialect: 'glm' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(err(() => formatToolCalls([{ name: 'a{b', input: {} }], { dialect: 'gemma4' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(err(() => formatToolCalls([{ name: 'f\nx', input: {} }], { dialect: 'deepseek-v3' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(err(() => formatToolCalls([{ name: 'f x', input: {} }], { dialect: 'gpt-oss' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(err(() => formatToolCalls([{ name: 'f:0', input: {} }], { dialect: 'kimi-k2' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(formatToolCalls([{ name: 'calc.add', input: {} }], { dialect: 'kimi-k2' })).toContain('functions.calc.add:0<')
  })

  it('should not support a name or key that would end a tag value slot', () => {
    expect(err(() => formatToolCalls([{ name: 'f>g', input: {} }], { dialect: 'qwen3-coder' }))).toEqual(['invalid-option', 'calls[0].name'])
    expect(err(() => formatToolCalls([{ name: 'f', input: { 'a b': 1 } }], { dialect: 'seed-oss' }))).toEqual(['invalid-option', 'calls[0].input'])
  })

  it('should not support an unknown dialect or variant, a non-string id, or a dialect with grammar or spelling', () => {
    expect(err(() => formatToolCalls(calls, { dialect: 'klingon' }))).toEqual(['invalid-option', 'dialect'])
    expect(err(() => formatToolCalls(calls, { dialect: 'glm', variant: 'glm-9' }))).toEqual(['invalid-option', 'variant'])
    expect(err(() => formatToolCalls(calls, { variant: 'glm-4.7' }))).toEqual(['invalid-option', 'variant'])
    expect(err(() => formatToolCalls(calls, { dialect: 'glm', spelling: 'xml' }))).toEqual(['invalid-option', 'dialect'])
    expect(err(() => formatToolCalls([{ name: 'f', id: 7 as never, input: {} }], { dialect: 'kimi-k2' }))).toEqual(['invalid-option', 'calls[0].id'])
  })

  it('should not support a pack that does not validate', () => {
    const pack = { ...structuredClone(dialects.hermes), values: { strings: 'raw' } } as unknown as DialectPack
    expect(err(() => formatToolCalls(calls, { dialect: pack }))).toEqual(['invalid-dialect', 'values.literals'])
  })
})

/**
 * Every text a pack's reader takes as one of its delimiters (tags in the
 * pack's spelling, each alternative of a literal, a regex's written form,
 * the quote token, trailing text): the pack's own markup.
 */
function delimiters(pack: DialectPack): string[] {
  const sp = spellingOf(pack)
  const out = new Set<string>()
  const prose = new Set(['name', 'description', 'models', 'sources', 'limits'])
  const walk = (v: unknown, key: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, key))
    if (typeof v === 'string') {
      // a template with slots ({name}) is a head, not a delimiter
      if (['text', 'write', 'quote', 'trailing'].includes(key) && v.trim() !== '' && !v.includes('{')) out.add(v)
      return
    }
    if (v === null || typeof v !== 'object') return
    const o = v as Record<string, unknown>
    if (o.kind === 'tag' && typeof o.name === 'string') out.add(sp.open + o.name + sp.end).add(sp.close + o.name + sp.end)
    for (const [k, x] of Object.entries(o)) if (!prose.has(k)) walk(x, k)
  }
  walk(pack, '')
  return [...out]
}

describe('formatToolCalls and its own delimiters', () => {
  it("should support a value or key holding any of its pack's delimiters: written so that the pack reads it back, or refused", () => {
    const failed: string[] = []
    for (const [name, pack] of Object.entries(dialects)) {
      let readable = true
      try {
        parseToolCalls('', { dialect: name })
      } catch {
        // gigachat and gpt-oss are written, not read
        readable = false
      }
      for (const variant of pack.blocks.map((b) => b.name)) {
        for (const d of delimiters(pack)) {
          for (const input of [{ a: `x${d}y` }, { [`k${d}`]: 1 }, { a: { b: [`x${d}`] } }]) {
            const calls = [{ name: 'f', input }, { name: 'g', input: { z: 1 } }]
            let text: string
            try {
              text = formatToolCalls(calls, { dialect: name, variant })
            } catch (e) {
              expect((e as ToolsieveError).code).toBe('invalid-option')
              continue
            }
            if (!readable) continue
            const read = parseToolCalls(text, { dialect: name }).calls.map((c) => ({ name: c.name, input: c.input }))
            if (!isDeepStrictEqual(read, calls)) failed.push(`${name} ${variant} ${JSON.stringify(input)}: ${JSON.stringify(text)}`)
          }
        }
      }
    }
    expect(failed).toEqual([])
  })
})
