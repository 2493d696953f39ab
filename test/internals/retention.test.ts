/**
 * White-box: what outlives a block. The block parser is kept per lexer and
 * the driver keeps a record of each push for a recovery; neither may keep
 * a finished block's parameters or tokens alive (a block can be as large
 * as the capture limit, and a sieve is often kept after its stream ends).
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { IToken } from 'chevrotain'
import { createSieve } from '../../src/index.js'
import { defaultGrammar } from '../../src/grammar/default.js'
import { compileLexer } from '../../src/lexer/lexer.js'
import { LineCursor } from '../../src/lexer/line-cursor.js'
import { midLine } from '../../src/lexer/lines.js'
import { modes } from '../../src/lexer/modes.js'
import { BlockParser } from '../../src/parser/block-parser.js'
import { Driver } from '../../src/sieve/driver.js'

const lexer = compileLexer(defaultGrammar)

function lexed(text: string): IToken[] {
  const ctx = { levels: [], holdDepth: 0, fenceCh: 0, fenceLen: 0, fenceDepth: 0, fenceIndent: 0, final: true, lineState: midLine, lines: new LineCursor(midLine), carry: null, noHoldBefore: -1, startAt: -1, rawOpener: '', rawNext: null, json: null, captureLimit: Infinity, afterBlock: false }
  return lexer.tokenize(text, modes.prose, ctx)
}

const params = Array.from({ length: 50 }, (_, i) => `<parameter name="p${i}" string="true">value ${i}</parameter>`).join('\n')
const block = `<tool_calls><invoke name="write">\n${params}\n</invoke></tool_calls>`

afterEach(() => vi.restoreAllMocks())

describe('what a finished block leaves behind', () => {
  it('should not support the block parser keeping the last invoke\'s parameters, or any tag\'s attributes, after a parse', () => {
    const parser = new BlockParser()
    const parsed = parser.parseBlock(lexed(block))
    expect(parsed?.invokes[0]?.params).toHaveLength(50)
    const kept = parser as unknown as { inv: { params: unknown[] }; par: { parts: unknown[]; raw: unknown[] }; tag: { attrs: { size: number } } }
    expect(kept.inv.params).toHaveLength(0)
    expect(kept.par.parts).toHaveLength(0)
    expect(kept.par.raw).toHaveLength(0)
    expect(kept.tag.attrs.size).toBe(0)
  })

  it.each([[16], [block.length]])('should not support the driver\'s push record holding the capture after a push went through (%i-char chunks)', (size) => {
    const drivers: Driver[] = []
    const real = Driver.prototype.push
    vi.spyOn(Driver.prototype, 'push').mockImplementation(function (this: Driver, chunk: string) {
      drivers.push(this)
      return real.call(this, chunk)
    })
    const sieve = createSieve({ streamArguments: true })
    const input = `Writing.\n\n${block}\nDone.`
    let calls = 0
    for (let i = 0; i < input.length; i += size) {
      calls += sieve.push(input.slice(i, i + size)).filter((e) => e.type === 'tool-call').length
      const record = (drivers[0] as unknown as { atPush: { chunk: unknown; tokens: unknown; run: unknown; runParts: unknown; hold: unknown; pending: string } }).atPush
      expect(record.chunk).toBeNull()
      expect(record.tokens).toBeNull()
      expect(record.run).toBeNull()
      expect(record.runParts).toBeNull()
      expect(record.hold).toBeNull()
      expect(record.pending).toBe('')
    }
    calls += sieve.end().filter((e) => e.type === 'tool-call').length
    expect(calls).toBe(1)
  })
})
