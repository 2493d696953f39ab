/**
 * toolsieve/fetch runs where there is no Node: everything it loads at run
 * time (its own files and what they import, transitively) imports no
 * `node:` module and no package but the library's own dependencies (ajv,
 * chevrotain: both made for browsers too), and uses no Node global.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = join(dirname(fileURLToPath(import.meta.url)), '../..')
const dependencies = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies)
const allowed = (spec: string) => dependencies.some((d) => spec === d || spec.startsWith(`${d}/`))

/** The runtime imports of a file: `import … from` and `export … from`, without `import type` / `export type`. */
function runtimeImports(source: string): string[] {
  const out: string[] = []
  for (const m of source.matchAll(/^(import|export)\s+(type\s+)?[^'"]*?from\s+'([^']+)'/gms)) if (m[2] === undefined) out.push(m[3]!)
  for (const m of source.matchAll(/^import\s+'([^']+)'/gm)) out.push(m[1]!)
  return out
}

describe('toolsieve/fetch at run time', () => {
  it('should not support node: modules, packages or Node globals anywhere it loads', () => {
    const seen = new Set<string>()
    const queue = [join(root, 'src/fetch/index.ts')]
    const problems: string[] = []
    while (queue.length > 0) {
      const file = queue.pop()!
      if (seen.has(file)) continue
      seen.add(file)
      const source = readFileSync(file, 'utf8')
      const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
      if (/\b(Buffer|process|require|__dirname)\s*[.(]/.test(code)) problems.push(`${relative(root, file)} uses a Node global`)
      for (const spec of runtimeImports(source)) {
        if (!spec.startsWith('.')) {
          if (!allowed(spec)) problems.push(`${relative(root, file)} imports ${spec}`)
        } else queue.push(join(dirname(file), spec.replace(/\.js$/, '.ts')))
      }
    }
    expect(seen.size).toBeGreaterThan(20)
    expect(problems).toEqual([])
  })
})
