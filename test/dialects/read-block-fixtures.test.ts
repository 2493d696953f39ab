/**
 * `readBlock` against the fixtures of the families whose blocks are
 * delimited by literal or tag openers and closers: every case rendered by
 * the models' own chat templates and every vLLM / SGLang parser case
 * (`test/fixtures/dialects/`). Each block is cut out of the case's input as
 * the engine will capture it, read, and its calls' inputs built as the sieve
 * builds them, with the case's tool schemas and without. Cases whose
 * expected calls toolsieve deliberately does not give are listed, with the
 * reason, in `read-block-exceptions.json`.
 */
import { describe, expect, it } from 'vitest'
import { dialects } from '../../src/dialects/registry.js'
import { blockDelimiters, readBlock } from '../../src/read/read-block.js'
import { callsOf, expectReasons, fixture, fixtureFiles, type FixtureCase } from '../helpers/dialects.js'
import { blockFamilies, blocksIn, readAll, withoutReasoning } from '../helpers/read-block.js'

const exceptions = fixture<{ cases: Record<string, Record<string, { reason: string; calls: FixtureCase['calls'] }>> }>('read-block-exceptions.json')

/**
 * The families read here: every spec of theirs the engine captures between
 * literal or tag delimiters; Qwen3-Coder, Seed-OSS and MiniMax-M2, which the
 * sieve reads with its tag reader, are read here too.
 */
const families = [...blockFamilies, 'qwen3-coder', 'seed-oss', 'minimax-m2']

const files = fixtureFiles.filter((f) => families.includes(f.dialect) && blockDelimiters(dialects[f.dialect]!).some((d) => d !== null && (f.variant === undefined || dialects[f.dialect]!.blocks[d.block]!.name === f.variant)))

describe('readBlock: the fixtures', () => {
  it('should support fixtures of every family with delimited blocks that has them', () => {
    expect(new Set(files.map((f) => f.dialect))).toEqual(new Set(['hermes', 'glm', 'kimi-k2', 'kimi-k3', 'deepseek-v3', 'phi-4-mini', 'gemma4', 'qwen3-coder', 'seed-oss', 'minimax-m2']))
  })

  for (const { file, dialect, rendered } of files) {
    it(`should support the ${file} cases (${dialect}), with and without the tools' schemas`, () => {
      const pack = dialects[dialect]!
      const cases = fixture<FixtureCase[]>(file)
      // a raw string ("42", "true") reads as what it spells unless a schema says string; elsewhere the markup types every value
      const typed = pack.values.strings !== 'raw' || pack.values.typeAttribute !== undefined
      let blocks = 0
      for (const c of cases) {
        const text = withoutReasoning(pack, c.input, rendered)
        blocks += blocksIn(pack, text).length
        const expected = callsOf(exceptions.cases[file]?.[c.id]?.calls ?? c.calls)
        const schemas = new Map(c.tools?.map((t) => [t.function.name, t.function.parameters]))
        if (c.tools !== undefined) expect(readAll(pack, text, (n) => schemas.get(n) ?? null).calls, `${file} ${c.id} (schema)`).toEqual(expected)
        if (c.tools === undefined || typed) expect(readAll(pack, text, () => null).calls, `${file} ${c.id}`).toEqual(expected)
      }
      expect(blocks).toBeGreaterThan(0)
    })
  }

  it('should support a reason for every case it reads otherwise', () => {
    expectReasons(exceptions.cases)
  })

  it('should not support the broken blocks of the cases that expect no call, and read every block of the others', () => {
    let refused = 0
    for (const { file, dialect, rendered } of files) {
      const pack = dialects[dialect]!
      for (const c of fixture<FixtureCase[]>(file)) {
        const none = (exceptions.cases[file]?.[c.id]?.calls ?? c.calls).length === 0
        for (const block of blocksIn(pack, withoutReasoning(pack, c.input, rendered))) {
          const r = readBlock(pack, block)
          expect(r.ok, `${file} ${c.id}: ${r.ok ? '' : r.reason}`).toBe(!none)
          if (!r.ok) {
            expect(r.reason).toMatch(/call 1|closer|opener/)
            refused++
          }
        }
      }
    }
    // DeepSeek's two blocks with no call markers, Hermes's bare-string arguments, Kimi's bad head
    expect(refused).toBe(4)
  })
})
