import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll, describe, expect, it } from 'vitest'
import { GrammarError } from '../../src/errors.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { loadGrammar, validateGrammar } from '../../src/grammar/load.js'
import { loadGrammar as loadGrammarFile } from '../../src/node.js'
import { caught } from '../helpers/grammar-error.js'

// Fixtures are plain JSON that the tests poke holes into.
type Json = any

const defaultUrl = new URL('../../grammar/default.json', import.meta.url)
const schemaUrl = new URL('../../grammar/schema.json', import.meta.url)
const rawDefault: Json = JSON.parse(readFileSync(defaultUrl, 'utf8'))

function minimal(): Json {
  return {
    name: 'mini',
    roles: { wrapper: ['tool_calls'], invoke: ['invoke'], parameter: ['parameter'] },
    frames: [{ name: 'xml', open: [[{ lit: ['<'] }, { name: true }]], close: [[{ lit: ['<'] }, { lit: ['/'] }, { name: true }]], end: [[{ lit: ['>'] }]] }],
  }
}


function rejected(edit: (g: Json) => void): GrammarError {
  const g = structuredClone(rawDefault)
  edit(g)
  const error = caught(() => validateGrammar(g))
  expect(error.code).toBe('invalid-grammar')
  return error
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen)
}

describe('validateGrammar', () => {
  it('should support the default grammar, deep-frozen and without $schema', () => {
    expect(defaultGrammar.name).toBe('default')
    expect(isDeepFrozen(defaultGrammar)).toBe(true)
    expect(defaultGrammar).not.toHaveProperty('$schema')
    expect(defaultGrammar.frames.map((f) => f.name)).toEqual(['dsml', 'fullwidth', 'xml'])
    expect(validateGrammar(rawDefault)).toEqual(defaultGrammar)
  })

  it('should support re-validating a validated grammar unchanged', () => {
    expect(validateGrammar(defaultGrammar)).toEqual(defaultGrammar)
  })

  it('should support omitted optional fields, filled with defaults', () => {
    const g = validateGrammar(minimal())
    expect(g).toMatchObject({
      caseInsensitive: true,
      attributes: { name: 'name', string: 'string' },
      repairs: { missingOpeningWrapper: true, unclosedWrapper: true, unclosedCdata: true },
      limits: { captureLimit: 262144 },
      markdown: { fences: true, codeSpans: true },
      rawTextParameters: [],
    })
    expect(g.frames[0]?.open[0]?.[0]).toEqual({ lit: ['<'], min: 1, max: 1 })
    expect(g.frames[0]?.open[0]?.[1]).toEqual({ name: true })
  })

  it('should support $schema and description keys, keeping only frame descriptions', () => {
    const g = validateGrammar({ ...minimal(), $schema: './schema.json', description: 'doc' })
    expect(Object.keys(g)).not.toContain('$schema')
    expect(Object.keys(g)).not.toContain('description')
    expect(defaultGrammar.frames[0]?.description).toMatch(/DSML/)
  })

  it('should support role names limited to frames, and names differing only in case when case-sensitive', () => {
    const g = minimal()
    g.caseInsensitive = false
    g.roles.wrapper = ['tool_calls', 'Tool_Calls', { name: 'calls', frames: ['xml'] }]
    expect(validateGrammar(g).roles.wrapper).toEqual(['tool_calls', 'Tool_Calls', { name: 'calls', frames: ['xml'] }])
  })

  it('should not support the same name twice, case-insensitively by default', () => {
    const g = minimal()
    g.roles.wrapper = ['tool_calls', 'Tool_Calls']
    expect(caught(() => validateGrammar(g)).field).toBe('roles.wrapper[1]')
  })

  it('should support the documented example path for a bad repetition bound', () => {
    const error = rejected((g) => { g.frames[1].open[0][2].max = 9 })
    expect(error.field).toBe('frames[1].open[0][2].max')
    expect(error.message).toMatch(/^frames\[1\]\.open\[0\]\[2\]\.max: must be between 0 and 8, got 9/)
  })

  // Each case: what breaks a copy of default.json, and the field the error must name.
  const cases: [string, (g: Json) => void, string, RegExp?][] = [
    ['a name that is not a string', (g) => { g.name = 0 }, 'name', /must be a string, got number 0/],
    ['an unknown top-level key', (g) => { g.wrappers = [] }, 'wrappers', /not a known key/],
    ['a missing name', (g) => { delete g.name }, 'name', /is required/],
    ['an empty name', (g) => { g.name = '' }, 'name', /must not be empty/],
    ['a non-string $schema', (g) => { g.$schema = 1 }, '$schema'],
    ['a missing role', (g) => { delete g.roles.invoke }, 'roles.invoke', /is required/],
    ['an extra role', (g) => { g.roles.tool = ['tool'] }, 'roles.tool', /not a known key/],
    ['an empty role', (g) => { g.roles.parameter = [] }, 'roles.parameter', /must not be empty/],
    ['a role that is not an array', (g) => { g.roles.invoke = 'invoke' }, 'roles.invoke', /must be an array/],
    ['a local name with a space', (g) => { g.roles.wrapper[1] = 'function calls' }, 'roles.wrapper[1]', /not a local name/],
    ['a local name starting with a digit', (g) => { g.roles.invoke[0] = '1invoke' }, 'roles.invoke[0]'],
    ['a role name that is a number', (g) => { g.roles.invoke[0] = 7 }, 'roles.invoke[0]', /local name or \{name, frames\?\}/],
    ['a bad local name in an object entry', (g) => { g.roles.wrapper[2].name = '<calls>' }, 'roles.wrapper[2].name'],
    ['an unknown key in a role name', (g) => { g.roles.wrapper[2].frame = ['xml'] }, 'roles.wrapper[2].frame'],
    ['a reference to a missing frame', (g) => { g.roles.wrapper[2].frames[0] = 'dsm' }, 'roles.wrapper[2].frames[0]', /names no frame/],
    ['an empty frame reference list', (g) => { g.roles.wrapper[2].frames = [] }, 'roles.wrapper[2].frames'],
    ['a name in two roles', (g) => { g.roles.parameter.push('invoke') }, 'roles.parameter[1]', /already used at roles\.invoke\[0\]/],
    ['no frames', (g) => { g.frames = [] }, 'frames', /must not be empty/],
    ['a duplicate frame name', (g) => { g.frames[2].name = 'dsml' }, 'frames[2].name', /duplicates frame/],
    ['an empty frame name', (g) => { g.frames[0].name = '' }, 'frames[0].name'],
    ['an unknown frame key', (g) => { g.frames[0].opens = [] }, 'frames[0].opens'],
    ['a missing open list', (g) => { delete g.frames[2].open }, 'frames[2].open', /is required/],
    ['an empty close list', (g) => { g.frames[2].close = [] }, 'frames[2].close', /must not be empty/],
    ['an empty end list', (g) => { g.frames[2].end = [] }, 'frames[2].end', /must not be empty/],
    ['an empty sequence', (g) => { g.frames[2].open[0] = [] }, 'frames[2].open[0]', /must not be empty/],
    ['an open sequence with no name slot', (g) => { g.frames[2].open[0].pop() }, 'frames[2].open[0]', /no name slot/],
    ['a close sequence with two name slots', (g) => { g.frames[2].close[0].push({ name: true }) }, 'frames[2].close[0][5]', /second name slot/],
    ['a sequence starting with the name slot', (g) => { g.frames[2].open[0] = [{ name: true }] }, 'frames[2].open[0][0]', /first character/],
    ['a sequence whose first part is optional', (g) => { g.frames[0].close[1][0].min = 0 }, 'frames[0].close[1][0].min', /first character/],
    ['nothing required before the name', (g) => { g.frames[2].open[0][0].min = 0 }, 'frames[2].open[0][0].min', /first character/],
    ['a frame opened by a space', (g) => { g.frames[2].open[0] = [{ lit: [' '] }, { name: true }] }, 'frames[2].open[0][0].lit[0]', /cannot start a tag: " " is a space or tab/],
    ['a tab among the first alternatives', (g) => { g.frames[0].close[1][0].lit = ['<', '\t<'] }, 'frames[0].close[1][0].lit[1]', /space or tab/],
    ['a frame opened by a backtick', (g) => { g.frames[2].open[0][0].lit = ['`'] }, 'frames[2].open[0][0].lit[0]', /Markdown code delimiter/],
    ['a frame opened by a tilde', (g) => { g.frames[2].close[0][0].lit = ['~~'] }, 'frames[2].close[0][0].lit[0]', /Markdown code delimiter/],
    ['a frame opened by a brace', (g) => { g.frames[2].open[0][0].lit = ['{'] }, 'frames[2].open[0][0].lit[0]', /JSON arguments/],
    ['an opening sequence with a part after the name slot', (g) => { g.frames[2].open[0].push({ lit: [':'], min: 0 }) }, 'frames[2].open[0][3]', /follows the name slot/],
    ['an end sequence with a name slot', (g) => { g.frames[2].end[0].push({ name: true }) }, 'frames[2].end[0][1]', /cannot hold the name slot/],
    ['an end sequence that matches the empty string', (g) => { g.frames[0].end[0][2].min = 0 }, 'frames[0].end[0]', /empty string/],
    ['a part that is neither lit nor name', (g) => { g.frames[2].open[0][0] = { text: ['<'] } }, 'frames[2].open[0][0].text'],
    ['a part that is not an object', (g) => { g.frames[2].open[0][0] = '<' }, 'frames[2].open[0][0]', /must be an object/],
    ['a name slot that is not true', (g) => { g.frames[2].open[0][1] = { name: 'x' } }, 'frames[2].open[0][1].name', /must be true/],
    ['a name slot with extra keys', (g) => { g.frames[2].open[0][1] = { name: true, min: 1 } }, 'frames[2].open[0][1].min'],
    ['an empty lit list', (g) => { g.frames[2].open[0][0].lit = [] }, 'frames[2].open[0][0].lit', /must not be empty/],
    ['an empty lit string', (g) => { g.frames[0].open[0][1].lit[1] = '' }, 'frames[0].open[0][1].lit[1]', /must not be empty/],
    ['a lit that is not a string', (g) => { g.frames[0].open[0][1].lit[0] = 32 }, 'frames[0].open[0][1].lit[0]'],
    ['a lit with a newline', (g) => { g.frames[0].open[0][1].lit.push('\n') }, 'frames[0].open[0][1].lit[4]', /line break/],
    ['a lit with a carriage return', (g) => { g.frames[2].end[0][0].lit = ['\r>'] }, 'frames[2].end[0][0].lit[0]', /line break/],
    ['min above max', (g) => { g.frames[0].open[0][1].min = 5 }, 'frames[0].open[0][1].max', /must be >= min \(5\)/],
    ['min above the default max', (g) => { g.frames[0].open[0][3].min = 2 }, 'frames[0].open[0][3].min', /max defaults to 1/],
    ['a negative min', (g) => { g.frames[0].open[0][1].min = -1 }, 'frames[0].open[0][1].min'],
    ['a fractional max', (g) => { g.frames[0].open[0][1].max = 1.5 }, 'frames[0].open[0][1].max', /integer/],
    ['a string max', (g) => { g.frames[0].open[0][1].max = '2' }, 'frames[0].open[0][1].max', /integer/],
    ['a non-boolean caseInsensitive', (g) => { g.caseInsensitive = 'yes' }, 'caseInsensitive', /true or false/],
    ['attributes that are not an object', (g) => { g.attributes = ['name'] }, 'attributes', /must be an object/],
    ['an unknown attribute key', (g) => { g.attributes.type = 'type' }, 'attributes.type'],
    ['a bad name attribute', (g) => { g.attributes.name = 'tool name' }, 'attributes.name', /not a local name/],
    ['a bad string attribute', (g) => { g.attributes.string = 5 }, 'attributes.string'],
    ['the same attribute for name and string', (g) => { g.attributes.string = 'NAME' }, 'attributes.string', /must differ/],
    ['a non-boolean repair', (g) => { g.repairs.missingOpeningWrapper = 1 }, 'repairs.missingOpeningWrapper'],
    ['an unknown repair', (g) => { g.repairs.missingClose = true }, 'repairs.missingClose', /expected missingOpeningWrapper, unclosedWrapper, unclosedCdata/],
    ['a non-boolean unclosed-wrapper repair', (g) => { g.repairs.unclosedWrapper = 'true' }, 'repairs.unclosedWrapper', /must be true or false, got "true"/],
    ['a non-boolean unclosed-CDATA repair', (g) => { g.repairs.unclosedCdata = 0 }, 'repairs.unclosedCdata', /must be true or false, got number 0/],
    ['a capture limit below 64', (g) => { g.limits.captureLimit = 63 }, 'limits.captureLimit', /between 64/],
    ['a fractional capture limit', (g) => { g.limits.captureLimit = 1000.5 }, 'limits.captureLimit'],
    ['a non-boolean fences flag', (g) => { g.markdown.fences = null }, 'markdown.fences', /got null/],
    ['a non-boolean codeSpans flag', (g) => { g.markdown.codeSpans = 'no' }, 'markdown.codeSpans'],
    ['rawTextParameters that is not an array', (g) => { g.rawTextParameters = 'content' }, 'rawTextParameters'],
    ['a rawTextParameters entry that is not a string', (g) => { g.rawTextParameters[3] = {} }, 'rawTextParameters[3]'],
  ]
  for (const [what, edit, field, message] of cases) {
    it(`should not support ${what}`, () => {
      const error = rejected(edit)
      expect(error.field).toBe(field)
      if (message) expect(error.message).toMatch(message)
    })
  }

  it('should not support a value that is not an object', () => {
    for (const value of [null, 42, 'default', [minimal()]]) {
      expect(caught(() => validateGrammar(value)).field).toBe('(grammar)')
    }
  })
})

describe('loadGrammar from the main entry', () => {
  it('should support a plain object, validated', () => {
    expect(loadGrammar(minimal()).name).toBe('mini')
    expect(loadGrammar(rawDefault)).toEqual(defaultGrammar)
    expect(caught(() => loadGrammar({ name: 'x' })).code).toBe('invalid-grammar')
  })

  // The main entry reads no files so that it runs in browsers and on edge runtimes.
  it('should not support a file path or URL, naming toolsieve/node', () => {
    for (const source of ['./my-grammar.json', defaultUrl]) {
      const error = caught(() => loadGrammar(source))
      expect(error.code).toBe('grammar-unreadable')
      expect(error.field).toBe(String(source))
      expect(error.message).toMatch(/import \{ loadGrammar \} from 'toolsieve\/node'/)
    }
  })
})

describe('loadGrammar from toolsieve/node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolsieve-grammar-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const write = (file: string, text: string): string => {
    const path = join(dir, file)
    writeFileSync(path, text)
    return path
  }

  it('should support a file path, a file URL and a plain object', () => {
    const path = write('mini.json', JSON.stringify(minimal()))
    expect(loadGrammarFile(path).name).toBe('mini')
    expect(loadGrammarFile(pathToFileURL(path)).name).toBe('mini')
    expect(loadGrammarFile(minimal()).name).toBe('mini')
    expect(loadGrammarFile(defaultUrl)).toEqual(defaultGrammar)
  })

  it('should support a file that starts with a byte order mark', () => {
    expect(loadGrammarFile(write('bom.json', `\uFEFF${JSON.stringify(minimal())}`)).name).toBe('mini')
  })

  it('should not support a file that cannot be read', () => {
    const path = join(dir, 'missing.json')
    const error = caught(() => loadGrammarFile(path))
    expect(error.code).toBe('grammar-unreadable')
    expect(error.field).toBe(path)
    expect(error.message).toMatch(/cannot be read/)
    expect(caught(() => loadGrammarFile(new URL('https://example.com/g.json'))).code).toBe('grammar-unreadable')
  })

  it('should not support a file that is not JSON', () => {
    const path = write('bad.json', '{"name": "mini",')
    const error = caught(() => loadGrammarFile(path))
    expect(error.code).toBe('grammar-unreadable')
    expect(error.field).toBe(path)
    expect(error.message).toMatch(/not valid JSON/)
  })

  it('should not support an invalid grammar file, naming the field and the file', () => {
    const g = minimal()
    g.frames[0].end[0][0].max = 0
    const path = write('invalid.json', JSON.stringify(g))
    const error = caught(() => loadGrammarFile(path))
    expect(error.code).toBe('invalid-grammar')
    expect(error.field).toBe('frames[0].end[0][0].max')
    expect(error.message).toContain(path)
  })
})

describe('grammar/schema.json', () => {
  const schema: Json = JSON.parse(readFileSync(schemaUrl, 'utf8'))

  it('should support every top-level key of default.json', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    for (const key of Object.keys(rawDefault)) expect(schema.properties).toHaveProperty([key])
    expect(rawDefault.$schema).toBe('./schema.json')
  })

  it('should support default.json, and not support a frame opened by a space, as the validator does', () => {
    const check = new Ajv2020({ strict: false }).compile(schema)
    expect(check(rawDefault), JSON.stringify(check.errors)).toBe(true)
    const spaced = structuredClone(rawDefault)
    spaced.frames[2].open[0] = [{ lit: [' '] }, { name: true }]
    expect(check(spaced)).toBe(false)
    expect(check.errors?.[0]?.instancePath).toBe('/frames/2/open/0/0/lit/0')
  })

  it('should support the same repairs as the validator, each documented with its default', () => {
    const repairs = schema.properties.repairs.properties
    expect(Object.keys(repairs)).toEqual(Object.keys(defaultGrammar.repairs ?? {}))
    for (const [key, property] of Object.entries<Json>(repairs)) {
      expect(property.default, key).toBe(true)
      expect(property.description, key).toMatch(/Default true\./)
      expect(rawDefault.repairs[key], key).toBe(true)
    }
  })

  it('should not support unknown keys, and describes every property', () => {
    expect(schema.additionalProperties).toBe(false)
    for (const [key, property] of Object.entries<Json>(schema.properties)) {
      expect(property.description, key).toEqual(expect.any(String))
    }
    // Every $ref points at a definition that exists.
    const refs = JSON.stringify(schema).match(/"#\/\$defs\/[A-Za-z]+"/g) ?? []
    for (const ref of refs) expect(schema.$defs).toHaveProperty([ref.slice(9, -1)])
  })
})
