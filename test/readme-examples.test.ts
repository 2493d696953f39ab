/**
 * Every ```ts / ```typescript block of README.md and docs/reference/*.md is a
 * file a user could paste: it is written out as a module of its own and type
 * checked against the sources (the package name and its subpaths mapped to
 * src/, as tsconfig.json does), with nothing added but `export {}`. A block
 * that is not meant to compile says so with another info string (`sh`,
 * `text`, `json`, …); a fence with no info string is refused, so no example
 * slips past unchecked. The README also keeps the promises users read it for:
 * short, a table of contents, the two checkout commands, links that resolve.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../', import.meta.url))
const docs = ['README.md', ...readdirSync(join(root, 'docs/reference')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/reference/${f}`)]

interface Block {
  /** Where the block's first content line is: `README.md:42`. */
  where: string
  file: string
  line: number
  info: string
  code: string
}

/** Fenced blocks, by CommonMark's rules for the fences these files use (backticks or tildes, 0–3 spaces in). */
function fencedBlocks(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]!)
    if (open === null) continue
    const fence = open[1]!
    const body: string[] = []
    let j = i + 1
    while (j < lines.length && !new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(lines[j]!)) body.push(lines[j++]!)
    blocks.push({ where: `${file}:${i + 2}`, file, line: i + 2, info: open[2]!, code: body.join('\n') })
    i = j
  }
  return blocks
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(path: string): Set<string> {
  const headings = readFileSync(path, 'utf8').replace(/^ {0,3}(`{3,}|~{3,})[^]*?^ {0,3}\1\s*$/gm, '').match(/^#{1,6} .*$/gm) ?? []
  return new Set(headings.map((h) => h.replace(/^#+ /, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')))
}

const all = docs.flatMap(fencedBlocks)
const typescript = all.filter((b) => b.info === 'ts' || b.info === 'typescript')

/** The compiler options of tsconfig.json, with `toolsieve/fetch` mapped too and unused names allowed (examples show values). */
function compilerOptions(): ts.CompilerOptions {
  const configFile = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root)
  return {
    ...parsed.options,
    noEmit: true,
    noUnusedLocals: false,
    noUnusedParameters: false,
    paths: { ...parsed.options.paths, 'toolsieve/fetch': ['./src/fetch/index.ts'] },
  }
}

const scratch = join(root, '.scratch', `readme-snippets-${process.pid}`)
const problems = new Map<Block, string[]>()

beforeAll(() => {
  rmSync(scratch, { recursive: true, force: true })
  mkdirSync(scratch, { recursive: true })
  const files = typescript.map((block, i) => {
    const name = join(scratch, `${i}-${block.file.replace(/[^A-Za-z0-9]+/g, '-')}-${block.line}.ts`)
    writeFileSync(name, `${block.code}\nexport {}\n`)
    return name
  })
  const program = ts.createProgram(files, compilerOptions())
  typescript.forEach((block, i) => {
    const source = program.getSourceFile(files[i]!)
    const diagnostics = source === undefined ? [] : [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    problems.set(block, diagnostics.map((d) => {
      const line = d.start === undefined || d.file === undefined ? 0 : d.file.getLineAndCharacterOfPosition(d.start).line
      const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
      const missing = message.includes("'toolsieve/fetch'") && !existsSync(join(root, 'src/fetch/index.ts')) ? ' (src/fetch/index.ts does not exist)' : ''
      return `${block.file}:${block.line + line}: ${message}${missing}`
    }))
  })
}, 300_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the code examples of README.md and docs/reference', () => {
  it('should support finding them: every file has its blocks, and every fence says what it holds', () => {
    expect(typescript.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(5)
    expect(typescript.filter((b) => b.file !== 'README.md').length).toBeGreaterThanOrEqual(10)
    expect(all.filter((b) => b.info === '').map((b) => b.where)).toEqual([])
  })

  it.each(typescript.map((b) => [b.where, b] as const))('should support compiling %s with its imports', (_where, block) => {
    expect(problems.get(block)).toEqual([])
  })
})

describe('README.md', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')

  it('should support reading it in five minutes: at most 2,000 words, with a table of contents', () => {
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(2000)
    expect(readme).toMatch(/^## Contents$/m)
  })

  it('should support trying it from a checkout: the demo and test commands', () => {
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toContain('npm ci && npm test')
  })

  it('should support following every relative link of the README and the reference to a file and heading that exist', () => {
    const broken: string[] = []
    for (const file of docs) {
      const text = readFileSync(join(root, file), 'utf8')
      for (const [, target = '', anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)) {
        if (/^[a-z]+:/.test(target)) continue
        const path = join(root, dirname(file), target)
        if (target !== '' && !existsSync(path)) broken.push(`${file} -> ${relative(root, path)}`)
        else if (anchor !== undefined && path.endsWith('.md') && !headingSlugs(target === '' ? join(root, file) : path).has(anchor)) {
          broken.push(`${file} -> ${relative(root, path)}#${anchor}`)
        }
      }
    }
    expect(broken).toEqual([])
  })

  it('should support finding the whole reference from the README: it links the reference index, which links every docs/reference file', () => {
    expect(readme).toContain('](docs/reference/README.md)')
    const index = readFileSync(join(root, 'docs/reference/README.md'), 'utf8')
    const linked = docs.filter((f) => f.startsWith('docs/reference/') && f !== 'docs/reference/README.md' && !readme.includes(`](${f}`) && !index.includes(`](${f.slice('docs/reference/'.length)}`))
    expect(linked).toEqual([])
  })
})
