/**
 * toolsieve/openai type-checks against the openai 7 types as a v7 user
 * compiles it: test/adapters/openai-types.ts (the compile-time checks that
 * `tsc --noEmit` runs against openai 6) and the adapter's sources, with every
 * `openai` / `openai/…` import resolved to the `openai7` alias, installed
 * in tools/sdk-current (openai 7 declares Node 22, so it is not in the root
 * package).
 */
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))
const checks = fileURLToPath(new URL('./openai-types.ts', import.meta.url))
// the alias resolves as from a file of tools/sdk-current, where it is installed
const fromSdkCurrent = fileURLToPath(new URL('../../tools/sdk-current/index.ts', import.meta.url))

describe('toolsieve/openai against the openai 7 types', () => {
  // a whole program over the SDK's declarations: seconds, not milliseconds, on a busy machine
  it('should support compiling the SDK-type checks with openai resolved to v7, without errors', { timeout: 180_000 }, () => {
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts'],
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      resolveJsonModule: true,
    }
    const host = ts.createCompilerHost(options)
    const resolved: string[] = []
    host.resolveModuleNameLiterals = (literals, containingFile, redirect, opts, sourceFile) =>
      literals.map((literal) => {
        const name = literal.text === 'openai' || literal.text.startsWith('openai/') ? `openai7${literal.text.slice('openai'.length)}` : literal.text
        const mode = ts.getModeForUsageLocation(sourceFile, literal, opts)
        const from = name === literal.text ? containingFile : fromSdkCurrent
        const result = ts.resolveModuleName(name, from, opts, host, undefined, redirect, mode)
        if (name !== literal.text && result.resolvedModule) resolved.push(result.resolvedModule.resolvedFileName)
        return result
      })
    const program = ts.createProgram({ rootNames: [checks], options, host })
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(problems).toEqual([])
    // the check did read the v7 declarations, for the sources as for the checks
    expect(resolved.some((f) => f.includes('/tools/sdk-current/node_modules/openai7/'))).toBe(true)
    expect(program.getSourceFiles().some((f) => f.fileName.startsWith(`${root}src/openai/`))).toBe(true)
    expect(program.getSourceFiles().some((f) => f.fileName.includes('/node_modules/openai/'))).toBe(false)
  })
})
