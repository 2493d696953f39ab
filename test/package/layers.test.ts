/**
 * No module imports from a layer above its own, type-only imports included:
 * what a higher layer builds from a lower one's objects (a lexer's fast-path
 * tables, its block parser) is kept in that higher layer, in a map keyed by
 * the object. `errors.ts` and `types.ts` are shared by every layer.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const src = fileURLToPath(new URL('../../src/', import.meta.url))

/** Each folder's layer, lowest first; a module may import its own layer and those below. */
const layers: Record<string, number> = {
  grammar: 0,
  dialects: 1,
  lexer: 1,
  parser: 2,
  values: 3,
  schema: 4,
  read: 4,
  sieve: 5,
  format: 5,
  prompt: 6,
  'parse.ts': 6,
  'stream.ts': 6,
  adapters: 7,
  openai: 8,
  anthropic: 8,
  'ai-sdk': 8,
  fetch: 9,
  'index.ts': 10,
  'node.ts': 10,
  cli: 11,
}
const shared = new Set(['errors.ts', 'types.ts'])

const layerOf = (file: string): string => relative(src, file).split('/')[0]!

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? modules(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
}

describe('layers', () => {
  it('should support every folder of src having a layer', () => {
    for (const file of modules(src)) {
      const top = layerOf(file)
      expect(shared.has(top) || top in layers, top).toBe(true)
    }
  })

  it('should not support a module importing from a layer above its own', () => {
    const upward: string[] = []
    for (const file of modules(src)) {
      const from = layerOf(file)
      if (shared.has(from)) continue
      for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
        if (!fileName.startsWith('.')) continue
        const to = layerOf(join(dirname(file), fileName))
        if (shared.has(to) || to === from) continue
        if (layers[to]! > layers[from]!) upward.push(`${relative(src, file)} imports ${fileName}`)
      }
    }
    expect(upward).toEqual([])
  })
})
