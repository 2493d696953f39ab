/**
 * What a call's schema check costs: coerce + validate, per call, for a few
 * realistic tool schemas, with today's interpreter (`@cfworker/json-schema`
 * behind `validatorFor`, which runs where code generation from strings is
 * blocked) beside the ajv-compiled validator it replaced (called directly
 * here; ajv is a dev dependency only). Both sides run the same coercion and
 * the same inputs, in interleaved rounds; ops/s are the median of the rounds.
 *
 *   npx tsx bench/schema-validate.ts            flags: --rounds 5 --ms 300
 *
 * Then the cost of a schema's first use (a cache miss): ajv's compile
 * against the interpreter's check and copy.
 *
 * Aborts (exit 1) if the two validators disagree on any input: a benchmark
 * must never time a broken path.
 */
import { performance } from 'node:perf_hooks'
import { Ajv, type ErrorObject } from 'ajv'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { coerceValue } from '../src/schema/coerce.js'
import { validatorFor, type Validator } from '../src/schema/validate.js'
import { parseJson } from '../src/values/json.js'
import { writeJson } from '../src/values/json-write.js'

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const ROUNDS = flag('rounds', 5)
const MS = flag('ms', 300)

type Schema = Record<string, unknown>

/** Each schema with a call body as a model writes it (numbers and booleans as text) that passes, and one that fails. */
const cases: Array<{ name: string; schema: Schema; valid: string; invalid: string }> = [
  {
    name: 'read_file (2 properties)',
    schema: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1 } }, required: ['path'], additionalProperties: false },
    valid: '{"path": "src/index.ts", "limit": "200"}',
    invalid: '{"path": "src/index.ts", "limit": "0"}',
  },
  {
    name: 'edit (7 properties, $ref, anyOf, enum, pattern)',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, pattern: '^[^\\0]+$' },
        line: { type: 'integer', minimum: 1 },
        mode: { enum: ['replace', 'insert', 'delete'] },
        dry: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        range: { $ref: '#/$defs/range' },
        note: { anyOf: [{ type: 'null' }, { type: 'string', maxLength: 200 }] },
      },
      required: ['path', 'line'],
      additionalProperties: false,
      $defs: { range: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } }, required: ['from'] } },
    },
    valid: '{"path": "src/a.ts", "line": "12", "mode": "insert", "dry": "false", "tags": ["x", "y"], "range": {"from": "3", "to": "4"}, "note": null}',
    invalid: '{"path": "", "line": "0", "mode": "move", "tags": ["x", "x"], "range": {}}',
  },
  {
    name: 'todo_write (2020-12, array of 20 objects)',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        todos: {
          type: 'array',
          maxItems: 100,
          items: {
            type: 'object',
            properties: { id: { type: 'string' }, content: { type: 'string', minLength: 1 }, status: { enum: ['pending', 'in_progress', 'completed'] }, priority: { type: 'integer', minimum: 0, maximum: 3 } },
            required: ['id', 'content', 'status'],
            additionalProperties: false,
          },
        },
      },
      required: ['todos'],
    },
    valid: JSON.stringify({ todos: Array.from({ length: 20 }, (_, i) => ({ id: String(i), content: `step ${i} of the plan`, status: i < 5 ? 'completed' : 'pending', priority: String(i % 4) })) }),
    invalid: JSON.stringify({ todos: Array.from({ length: 20 }, (_, i) => ({ id: String(i), content: i === 7 ? '' : `step ${i}`, status: i === 9 ? 'done' : 'pending' })) }),
  },
]

/** The removed path: ajv with the options toolsieve compiled with (one instance per dialect, kept), and its error text. */
const options = { allErrors: true, strict: false, validateFormats: false, logger: false } as const
const engines = { draft07: new Ajv(options), draft2020: new Ajv2020(options) }
function ajvValidator(schema: Schema): Validator {
  const ajv = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12') ? engines.draft2020 : engines.draft07
  const fn = ajv.compile(schema)
  ajv.removeSchema(schema)
  const describe = (e: ErrorObject) => `${e.instancePath === '' ? '(input)' : e.instancePath} ${e.message ?? e.keyword}`
  return (input) => (fn(input) ? null : { path: fn.errors?.[0]?.instancePath ?? '', message: (fn.errors ?? []).map(describe).join('; ') })
}

/** Coerce the decoded body to the schema and validate it, as `calls.ts` does for each call. */
function check(validate: Validator, schema: Schema, body: unknown): boolean {
  const input = coerceValue(body, schema, schema)
  const settled = JSON.parse(writeJson(input, { settle: true }).json) as unknown
  return validate(settled) === null
}

function opsPerSecond(f: () => void): number {
  let n = 0
  const start = performance.now()
  let now = start
  while (now - start < MS) {
    for (let i = 0; i < 100; i++) f()
    n += 100
    now = performance.now()
  }
  return (n * 1000) / (now - start)
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

console.log(`schema check per call (coerce + validate), median of ${ROUNDS} rounds of ${MS} ms, Node ${process.version}\n`)
console.log('| schema | input | ajv (compiled) ops/s | interpreter ops/s | interpreter / ajv |')
console.log('|---|---|---:|---:|---:|')
let broken = false
for (const c of cases) {
  const old = ajvValidator(c.schema)
  const now = validatorFor(c.schema)
  for (const which of ['valid', 'invalid'] as const) {
    const parsed = parseJson(c[which])
    if (!parsed.ok) throw new Error(`${c.name}: the ${which} body is not JSON`)
    const body = parsed.value
    const expected = which === 'valid'
    if (check(old, c.schema, body) !== expected || check(now, c.schema, body) !== expected) {
      console.error(`${c.name}: the ${which} input is not ${which} under both validators`)
      broken = true
      continue
    }
    const a: number[] = []
    const b: number[] = []
    for (let r = 0; r < ROUNDS; r++) {
      // interleaved, and which side goes first alternates, so drift falls on both alike
      const first = r % 2 === 0
      if (first) a.push(opsPerSecond(() => check(old, c.schema, body)))
      b.push(opsPerSecond(() => check(now, c.schema, body)))
      if (!first) a.push(opsPerSecond(() => check(old, c.schema, body)))
    }
    console.log(`| ${c.name} | ${which} | ${fmt(median(a))} | ${fmt(median(b))} | ${(median(b) / median(a)).toFixed(2)}x |`)
  }
}

// a schema seen for the first time (a cache miss: a new tool, or one past the LRU): compile vs check-and-copy
console.log('\n| schema, first use | ajv compile µs | interpreter prepare µs |')
console.log('|---|---:|---:|')
let serial = 0
for (const c of cases) {
  const fresh = () => ({ ...c.schema, title: `distinct ${serial++}` })
  const a: number[] = []
  const b: number[] = []
  for (let r = 0; r < ROUNDS; r++) {
    a.push(1e6 / opsPerSecond(() => ajvValidator(fresh())))
    b.push(1e6 / opsPerSecond(() => validatorFor(fresh())))
  }
  console.log(`| ${c.name} | ${median(a).toFixed(0)} | ${median(b).toFixed(1)} |`)
}
if (broken) process.exit(1)
