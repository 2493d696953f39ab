/**
 * The dialect tables of README.md and docs/reference/dialects.md say what
 * the sieve reads today: they are made from the packs and the reader
 * (`scripts/dialect-table.ts`), and a stale one fails here.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { dialectTable, tableFiles, withTable } from '../../scripts/dialect-table.js'
import { dialects } from '../../src/index.js'

const root = new URL('../../', import.meta.url)

describe('the dialect tables', () => {
  for (const [kind, file] of Object.entries(tableFiles) as Array<['readme' | 'docs', string]>) {
    it(`should support ${file} saying what the sieve reads of every pack (npx tsx scripts/dialect-table.ts)`, () => {
      const text = readFileSync(new URL(file, root), 'utf8')
      expect(withTable(text, dialectTable(kind))).toBe(text)
      for (const name of Object.keys(dialects)) expect(text, name).toContain(`\`${name}\``)
    })
  }
})
