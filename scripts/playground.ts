/**
 * `npm run playground`: type-check the playground (playground/tsconfig.json,
 * DOM types) and build it with Vite into playground/dist, a static page that
 * runs the library in the browser. `--out-dir DIR` builds elsewhere (the
 * browser test builds into .scratch/); `--serve` serves the result on
 * 127.0.0.1 afterwards (`--port`, default 5173) until interrupted.
 */
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import ts from 'typescript'
import { build } from 'vite'
import { serveStatic } from './static-server.js'

const here = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url))

/**
 * The playground's type errors, formatted; '' when there are none. Only its
 * own files are checked (the library's sources are the root tsconfig's job),
 * which keeps this to a few seconds.
 */
export function checkPlayground(): string {
  const configFile = here('playground/tsconfig.json')
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
  if (parsed === undefined) return `cannot read ${configFile}\n`
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, configFileParsingDiagnostics: parsed.errors })
  const own = parsed.fileNames.map((name) => program.getSourceFile(name)).filter((file) => file !== undefined)
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...own.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ]
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => '\n' })
}

/** Builds the page into `outDir` (emptied first). The page imports `toolsieve`, which is the sources here. */
export async function buildPlayground(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: here('playground'),
    base: './',
    logLevel: 'warn',
    resolve: { alias: [{ find: /^toolsieve$/, replacement: here('src/index.ts') }] },
    build: { outDir, emptyOutDir: true, target: 'es2022', sourcemap: true, reportCompressedSize: false },
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' }, serve: { type: 'boolean' }, port: { type: 'string' } } })
  const outDir = values['out-dir'] ?? here('playground/dist')
  const errors = checkPlayground()
  if (errors !== '') {
    process.stderr.write(`playground: type errors\n${errors}`)
    process.exit(1)
  }
  await buildPlayground(outDir)
  process.stdout.write(`playground: built ${outDir}/index.html (serve the folder with any static file server)\n`)
  if (values.serve === true) {
    const { url } = await serveStatic(outDir, Number(values.port ?? 5173))
    process.stdout.write(`playground: serving ${url} (Ctrl-C stops)\n`)
  }
}
