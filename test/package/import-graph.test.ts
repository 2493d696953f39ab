/**
 * The main entry must run where there is no Node: browsers, edge runtimes,
 * Deno and Bun without compatibility flags. So nothing it imports, however
 * deep, may import a `node:` module (or a bare builtin such as `fs`), or
 * locate files with `import.meta.url` (a bundle has no files beside it: that
 * is how the old default grammar crashed bundles with ENOENT). Node-only code
 * lives in `src/node.ts` (`toolsieve/node`).
 */
import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dependencies = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {})

interface Graph {
  /** Every module reached, relative to the repository, with the chain that reached it. */
  files: Map<string, string[]>
  /** Every import that is not a relative one, with the chain to the importing module. */
  external: { specifier: string; chain: string[] }[]
}

/** Follows every import, export-from and dynamic `import()`, type-only ones included. */
function importGraph(entry: string): Graph {
  return importGraphOf(entry)
}

function importGraphOf(entry: string): Graph {
  const graph: Graph = { files: new Map(), external: [] }
  const visit = (file: string, chain: string[]): void => {
    const name = relative(root, file)
    if (graph.files.has(name)) return
    const here = [...chain, name]
    graph.files.set(name, here)
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) graph.external.push({ specifier: fileName, chain: here })
      // Sources import each other as `.js`, the name the built file will have.
      else visit(join(dirname(file), fileName.replace(/\.js$/, '.ts')), here)
    }
  }
  visit(entry, [])
  return graph
}

const isBuiltin = (specifier: string): boolean =>
  specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0] ?? '')
const packageOf = (specifier: string): string =>
  specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/')

describe('the import graph of src/index.ts', () => {
  const graph = importGraph(join(root, 'src/index.ts'))

  it('should support reaching the grammar, sieve and parser modules (the walk follows imports)', () => {
    for (const file of ['src/grammar/default-data.ts', 'src/grammar/load.ts', 'src/sieve/create.ts', 'src/parse.ts']) {
      expect([...graph.files.keys()]).toContain(file)
    }
  })

  it('should not support a node: or builtin import anywhere in it', () => {
    const builtins = graph.external.filter((i) => isBuiltin(i.specifier)).map((i) => `${i.specifier} via ${i.chain.join(' > ')}`)
    expect(builtins).toEqual([])
  })

  it('should not support packages other than the runtime dependencies', () => {
    const others = graph.external.filter((i) => !dependencies.includes(packageOf(i.specifier)))
    expect(others.map((i) => `${i.specifier} via ${i.chain.join(' > ')}`)).toEqual([])
  })

  it('should not support import.meta, which locates files a bundle does not have', () => {
    const users = [...graph.files.keys()].filter((file) => /\bimport\.meta\b/.test(readFileSync(join(root, file), 'utf8')))
    expect(users).toEqual([])
  })

  it('should not support reaching src/node.ts, the Node-only entry', () => {
    expect(graph.files.has('src/node.ts')).toBe(false)
  })
})

/** The adapter entries run on edge runtimes too; their SDKs are types only (erased), never loaded. */
describe.each(['src/openai/index.ts', 'src/anthropic/index.ts', 'src/ai-sdk/index.ts', 'src/stream.ts'])('the import graph of %s', (entry) => {
  const graph = importGraphOf(join(root, entry))

  it('should not support a node: or builtin import anywhere in it', () => {
    expect(graph.external.filter((i) => isBuiltin(i.specifier)).map((i) => `${i.specifier} via ${i.chain.join(' > ')}`)).toEqual([])
  })

  it('should not support a runtime import of anything but the runtime dependencies (SDK types are type-only)', () => {
    const runtime = graph.external.filter((i) => !dependencies.includes(packageOf(i.specifier)))
    const typeOnly = (i: { specifier: string; chain: string[] }): boolean => {
      const source = readFileSync(join(root, i.chain[i.chain.length - 1]!), 'utf8')
      const escaped = i.specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
      return !new RegExp(`import (?!type)[^;]*from '${escaped}'`).test(source) && !new RegExp(`export (?!type)[^;]*from '${escaped}'`).test(source)
    }
    expect(runtime.filter((i) => !typeOnly(i)).map((i) => `${i.specifier} via ${i.chain.join(' > ')}`)).toEqual([])
  })

  it('should not support reaching src/node.ts or the command line', () => {
    expect([...graph.files.keys()].filter((f) => f === 'src/node.ts' || f.startsWith('src/cli/'))).toEqual([])
  })
})
