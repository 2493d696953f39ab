/**
 * The gateway pattern: every request brings its tools as new objects (a
 * fresh array of 100 tools, schemas deep-copied), and creates a sieve for
 * them. Validators are cached by schema content, so after the first request
 * nothing compiles and the heap stays flat; before, every request compiled
 * its 100 schemas again and ajv kept them all (about 3 KB per tool per
 * request, without bound).
 *
 * A second phase sends tools whose schemas differ on every request (each
 * compiles), to show the cache's bound: the heap levels off once the LRU is
 * full.
 *
 *   npx tsx bench/schema-cache.ts                       (heap as V8 finds it)
 *   node --expose-gc --import tsx bench/schema-cache.ts (after a full gc: what stays alive)
 *   flags: --requests 10000 --tools 100 --every 1000 --distinct 60
 */
import { createSieve, type ToolDefinition } from '../src/index.js'
import { cacheSize, cachedSchemas } from '../src/schema/validate.js'

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}

const requests = flag('requests', 10_000)
const toolCount = flag('tools', 100)
const every = flag('every', 1000)
const distinct = flag('distinct', 60)

const gc = (globalThis as { gc?: () => void }).gc
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

function heapUsed(): number {
  if (gc !== undefined) {
    gc()
    gc()
  }
  return process.memoryUsage().heapUsed
}

/** A realistic tool: a few typed properties, an enum, a nested object, an array; `salt` makes it unique. */
function tool(i: number, salt = ''): ToolDefinition {
  return {
    type: 'function',
    function: {
      name: `tool_${i}`,
      parameters: {
        type: 'object',
        description: `Tool number ${i}${salt}`,
        properties: {
          path: { type: 'string', description: 'A file path' },
          limit: { type: 'integer', minimum: 1, maximum: 10_000 },
          mode: { type: 'string', enum: ['read', 'write', 'append'] },
          options: { type: 'object', properties: { recursive: { type: 'boolean' }, depth: { type: 'number' } }, additionalProperties: false },
          tags: { type: 'array', items: { type: 'string' } },
          [`field_${i}`]: { type: 'string' },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
  }
}

const templates = Array.from({ length: toolCount }, (_, i) => tool(i))
const block = (i: number) =>
  `Calling.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name="tool_${i % toolCount}">\n` +
  '<｜DSML｜parameter name="path" string="true">src/a.ts</｜DSML｜parameter>\n' +
  '<｜DSML｜parameter name="limit" string="false">20</｜DSML｜parameter>\n' +
  '</｜DSML｜invoke>\n</｜DSML｜tool_calls>'

function request(i: number, tools: ToolDefinition[]): void {
  const sieve = createSieve({ tools })
  const events = [...sieve.push(block(i)), ...sieve.end()]
  const calls = events.filter((e) => e.type === 'tool-call').length
  const problems = events.filter((e) => e.type === 'diagnostic').length
  if (calls !== 1 || problems !== 0) throw new Error(`request ${i}: ${calls} calls, ${problems} diagnostics`)
}

console.log(`# Schema cache: ${requests} requests, each a fresh array of ${toolCount} tools (deep-copied schemas), a sieve per request`)
console.log(gc === undefined ? '(no --expose-gc: heap as V8 finds it)' : '(heap after a full gc)')
console.log('')
console.log('| requests | heap used (MB) | cached validators | ms per request (createSieve, push, end) |')
console.log('| ---: | ---: | ---: | ---: |')
const start = heapUsed()
console.log(`| 0 | ${mb(start)} | ${cachedSchemas()} | |`)
// only the sieve's part is timed: the deep copy stands for the gateway's own work of building the tools
let ms = 0
for (let i = 1; i <= requests; i++) {
  const tools = structuredClone(templates)
  const t = performance.now()
  request(i, tools)
  ms += performance.now() - t
  if (i % every === 0) {
    console.log(`| ${i} | ${mb(heapUsed())} | ${cachedSchemas()} | ${(ms / every).toFixed(3)} |`)
    ms = 0
  }
}

console.log('')
console.log(`# Distinct schemas: ${distinct} requests of ${toolCount} tools whose schemas differ every time (each compiles; the LRU holds ${cacheSize})`)
console.log('')
console.log('| requests | schemas compiled | heap used (MB) | cached validators |')
console.log('| ---: | ---: | ---: | ---: |')
const step = Math.max(1, Math.floor(distinct / 6))
for (let r = 1; r <= distinct; r++) {
  request(r, Array.from({ length: toolCount }, (_, i) => tool(i, ` (request ${r})`)))
  if (r % step === 0 || r === distinct) console.log(`| ${r} | ${r * toolCount} | ${mb(heapUsed())} | ${cachedSchemas()} |`)
}
