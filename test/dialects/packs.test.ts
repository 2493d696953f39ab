/**
 * The packs in `grammar/dialects/`: each validates against
 * `grammar/dialect.schema.json` and `validateDialect`, is exported under its
 * file name, and the generated module holds exactly the files' data. A broken
 * pack is refused with `invalid-dialect`, naming the field.
 */
import { readFileSync } from 'node:fs'
import { Validator, type Schema } from '@cfworker/json-schema'
import { describe, expect, it } from 'vitest'
import { readPacks, renderDialectModule, targetFile } from '../../scripts/generate-dialect-data.js'
import { defaultGrammar, dialects, formatToolCalls, validateDialect, ToolsieveError } from '../../src/index.js'

const schema = JSON.parse(readFileSync(new URL('../../grammar/dialect.schema.json', import.meta.url), 'utf8')) as Schema
const files = readPacks()
const schemaErrors = (data: unknown) => new Validator(schema, '2020-12', false).validate(data).errors.map((e) => `${e.instanceLocation} ${e.error}`)

const REQUIRED = ['deepseek', 'deepseek-v3', 'qwen3-coder', 'seed-oss', 'hermes', 'glm', 'minimax-m2', 'kimi-k2', 'kimi-k3', 'mistral', 'llama3-json', 'pythonic', 'gemma4', 'gpt-oss', 'phi-4-mini']
const EXTRA = ['minimax-m1', 'granite', 'internlm', 'step3', 'jamba', 'hunyuan', 'apertus', 'gigachat', 'xlam']

function refused(data: unknown): [string, string | undefined] {
  try {
    validateDialect(data)
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    return [(e as ToolsieveError).code, (e as ToolsieveError).field]
  }
  return ['accepted', undefined]
}

/** A copy of the hermes pack with `edit` applied. */
function broken(edit: (p: any) => void): unknown {
  const p = structuredClone(files.hermes) as any
  edit(p)
  return p
}

describe('the dialect packs', () => {
  it('should support every family with fixtures and every family LANDSCAPE.md describes well enough', () => {
    expect(Object.keys(dialects).sort()).toEqual([...REQUIRED, ...EXTRA].sort())
    expect(Object.keys(files).sort()).toEqual(Object.keys(dialects).sort())
  })

  for (const [name, data] of Object.entries(files)) {
    it(`should support ${name}: valid against dialect.schema.json and validateDialect, named after its file`, () => {
      expect(schemaErrors(data)).toEqual([])
      const pack = validateDialect(data)
      expect(pack.name).toBe(name)
      expect(dialects[name]).toEqual(pack)
      expect(pack.models.length).toBeGreaterThan(0)
      expect(pack.sources.length).toBeGreaterThan(0)
      expect((data as { $schema?: string }).$schema).toBe('../dialect.schema.json')
    })

    it(`should support ${name}: every block writes a call`, () => {
      for (const block of dialects[name]!.blocks) {
        const out = formatToolCalls([{ name: 'get_weather', input: { city: 'Paris', days: 3 } }], { dialect: name, variant: block.name })
        expect(out).toContain('get_weather')
        expect(out).toContain('Paris')
      }
    })
  }

  it('should support the generated module holding exactly the files', () => {
    expect(readFileSync(targetFile, 'utf8'), 'run `npx tsx scripts/generate-dialect-data.ts`').toBe(renderDialectModule(files))
  })

  it('should support deepseek describing the default grammar: its role names, attributes and DSML spelling', () => {
    const pack = dialects.deepseek!
    const block = pack.blocks[0]!
    const names = (role: 'wrapper' | 'invoke' | 'parameter') => defaultGrammar.roles[role].map((n) => (typeof n === 'string' ? n : n.name))
    expect(pack.grammar).toBe('default')
    expect(block.open).toEqual({ kind: 'tag', name: 'tool_calls' })
    expect(names('wrapper')).toContain('tool_calls')
    expect(block.call.open).toEqual({ kind: 'tag', name: 'invoke' })
    expect(names('invoke')).toContain('invoke')
    expect(block.call.arguments).toEqual({ kind: 'elements', element: { kind: 'tag', name: 'parameter' }, key: { from: 'attribute', attribute: defaultGrammar.attributes?.name ?? 'name' }, close: 'explicit' })
    expect(names('parameter')).toContain('parameter')
    expect(pack.values.typeAttribute?.attribute).toBe(defaultGrammar.attributes?.string ?? 'string')
    expect(pack.tagSpelling).toEqual({ open: '<｜DSML｜', close: '</｜DSML｜', end: '>' })
    expect(defaultGrammar.frames.map((f) => f.name)).toContain('dsml')
  })

  it('should support grammar/dialects/README.md listing every pack', () => {
    const readme = readFileSync(new URL('../../grammar/dialects/README.md', import.meta.url), 'utf8')
    for (const name of Object.keys(dialects)) expect(readme, name).toContain(`| \`${name}\` |`)
    // the example's output, as the README prints it
    const out = formatToolCalls([{ name: 'get_weather', input: { city: 'Paris', days: 3 } }], { dialect: 'qwen3-coder' })
    expect(readme).toContain(out.split('\n').map((l) => `// ${l}`).join('\n'))
    // each row's written form is what the pack writes
    for (const name of Object.keys(dialects)) {
      const written = formatToolCalls([{ name: 'f', input: { k: 'v' } }], { dialect: name }).replace(/\n/g, '⏎').replace(/\|/g, '\\|')
      expect(readme, name).toContain(`| \`${written}\` |`)
    }
  })
})

describe('validateDialect', () => {
  const cases: Array<[string, (p: any) => void, string]> = [
    ['a pack that is not an object', () => {}, ''],
    ['a missing name', (p) => delete p.name, 'name'],
    ['a name with capitals', (p) => (p.name = 'Hermes'), 'name'],
    ['an unknown top-level field', (p) => (p.colour = 'blue'), 'colour'],
    ['no blocks', (p) => (p.blocks = []), 'blocks'],
    ['an unknown delimiter kind', (p) => (p.blocks[0].open = { kind: 'magic' }), 'blocks[0].open.kind'],
    ['an empty literal', (p) => (p.blocks[0].open = { kind: 'literal', text: [''] }), 'blocks[0].open.text[0]'],
    ['a tag name with a blank', (p) => (p.blocks[0].close = { kind: 'tag', name: 'tool call' }), 'blocks[0].close.name'],
    ['a regex that does not compile', (p) => (p.blocks[0].open = { kind: 'regex', pattern: '(', write: '<x>' }), 'blocks[0].open.pattern'],
    ['a head pattern without a name group', (p) => (p.blocks[0].call.name = { from: 'head', pattern: '^(.+)$', write: '{name}' }), 'blocks[0].call.name.pattern'],
    ['an unknown name source', (p) => (p.blocks[0].call.name = { from: 'telepathy' }), 'blocks[0].call.name.from'],
    ['a JSON name with element arguments', (p) => (p.blocks[0].call.arguments = { kind: 'elements', element: { kind: 'tag', name: 'p' }, key: { from: 'tag-name' }, close: 'explicit' }), 'blocks[0].call.arguments'],
    ['a bad layout', (p) => (p.blocks[0].layout = 'sideways'), 'blocks[0].layout'],
    ['a repeated block name', (p) => p.blocks.push(structuredClone(p.blocks[0])), 'blocks[2].name'],
    ['a per-opener block closed by a tag', (p) => (p.blocks[0].layout = 'per-opener'), 'blocks[0].close.kind'],
    ['quoted strings without a quote', (p) => (p.values.strings = 'quoted'), 'values.quote'],
    ['a missing literal', (p) => delete p.values.literals.null, 'values.literals.null'],
    ['a type attribute missing a type', (p) => (p.values.typeAttribute = { attribute: 'type', values: { string: 's' } }), 'values.typeAttribute.values.number'],
    ['a region of an unknown kind', (p) => (p.regions[0].kind = 'dream'), 'regions[0].kind'],
    ['a call frame with no closer', (p) => (p.blocks[0].call.open = { kind: 'literal', text: ['<c>'] }), 'blocks[0].call.close'],
    ['a head separator after a JSON name', (p) => (p.blocks[0].call.headSeparator = { kind: 'literal', text: [':'] }), 'blocks[0].call.headSeparator'],
    ['an id length of zero', (p) => (p.blocks[0].call.id = { from: 'json-field', field: 'id', template: '{index}', length: 0 }), 'blocks[0].call.id.length'],
    ['an id position that is no boolean', (p) => (p.blocks[0].call.id = { from: 'json-field', field: 'id', template: '{index}', position: 'yes' }), 'blocks[0].call.id.position'],
  ]
  for (const [what, edit, field] of cases) {
    it(`should not support ${what}: invalid-dialect naming ${field || 'the pack'}`, () => {
      const data = what === 'a pack that is not an object' ? 'hermes' : broken(edit)
      expect(refused(data)).toEqual(['invalid-dialect', field])
      if (!['a regex that does not compile', 'a JSON name with element arguments', 'a per-opener block closed by a tag', 'a head separator after a JSON name', 'a repeated block name'].includes(what)) {
        expect(schemaErrors(data), 'the schema refuses it too').not.toEqual([])
      }
    })
  }

  it('should support a made-up pack of the user\'s own, written with formatToolCalls', () => {
    const pack = validateDialect({
      name: 'acme',
      description: 'A made-up dialect: @@call f {json} @@end',
      models: ['acme-1'],
      sources: ['this test'],
      values: { strings: 'json', literals: { true: 'true', false: 'false', null: 'null' }, numbers: 'json', containers: 'json', untyped: 'guess' },
      blocks: [{ name: 'at', open: { kind: 'literal', text: ['@@call '] }, close: { kind: 'literal', text: [' @@end'] }, layout: 'call', padding: { afterOpen: '', beforeClose: '' }, separator: { write: '\n', as: 'text' }, call: { name: { from: 'head', pattern: '^(?<name>\\S+)$', write: '{name}' }, headSeparator: { kind: 'literal', text: [' '] }, arguments: { kind: 'json' }, gap: '' } }],
    })
    expect(schemaErrors(pack)).toEqual([])
    expect(formatToolCalls([{ name: 'f', input: { a: 1 } }, { name: 'g', input: {} }], { dialect: pack })).toBe('@@call f {"a":1} @@end\n@@call g {} @@end')
  })

  it('should support keys as tag names (MiniMax-M3 style), written by the same interpreter', () => {
    const pack = validateDialect({
      ...structuredClone(files['minimax-m2'] as object),
      name: 'tag-keys',
      blocks: [{ ...structuredClone((files['minimax-m2'] as any).blocks[0]), call: { ...structuredClone((files['minimax-m2'] as any).blocks[0].call), arguments: { kind: 'elements', element: { kind: 'tag', name: 'parameter' }, key: { from: 'tag-name' }, close: 'explicit' } } }],
    })
    expect(formatToolCalls([{ name: 'f', input: { city: 'Paris', n: 2 } }], { dialect: pack })).toBe('<minimax:tool_call>\n<invoke name="f">\n<city>Paris</city>\n<n>2</n>\n</invoke>\n</minimax:tool_call>')
  })
})

describe('dialect.schema.json and validateDialect agreeing', () => {
  /** Every path into `v` (objects and arrays), as key lists. */
  function paths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
    if (typeof v !== 'object' || v === null) return []
    const keys = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(v)
    return keys.flatMap((k) => [[...at, k], ...paths((v as any)[k], [...at, k])])
  }
  function mutate(data: unknown, path: Array<string | number>, how: 'delete' | 'number' | 'empty'): unknown {
    const copy = structuredClone(data) as any
    let parent = copy
    for (const k of path.slice(0, -1)) parent = parent[k]
    const last = path.at(-1)!
    if (how === 'delete') Array.isArray(parent) ? parent.splice(last as number, 1) : delete parent[last]
    else parent[last] = how === 'number' ? 42 : ''
    return copy
  }

  it('should not support anything the schema refuses: every one-field break of every pack is refused by validateDialect too', () => {
    let refusedBySchema = 0
    for (const [name, data] of Object.entries(files)) {
      for (const path of paths(data)) {
        for (const how of ['delete', 'number', 'empty'] as const) {
          const broken = mutate(data, path, how)
          if (schemaErrors(broken).length === 0) continue
          refusedBySchema++
          expect(refused(broken)[0], `${name} ${how} ${path.join('.')}`).toBe('invalid-dialect')
        }
      }
    }
    expect(refusedBySchema).toBeGreaterThan(1000)
  })
})

describe('the exported packs', () => {
  it('should not support changing a shipped pack in place: packs are deep-frozen', () => {
    const pack = dialects.hermes!
    expect(Object.isFrozen(pack)).toBe(true)
    expect(Object.isFrozen(pack.blocks[0]!.call.name)).toBe(true)
    expect(() => {
      ;(pack.blocks[0]!.padding as { afterOpen: string }).afterOpen = 'x'
    }).toThrow(TypeError)
    expect(Object.isFrozen(dialects)).toBe(true)
  })
})
