import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url))
// the current SDK lines need Node 22 and live in their own install (tools/sdk-current): their names resolve from there
const sdkCurrent = fileURLToPath(new URL('./tools/sdk-current/package.json', import.meta.url))
const sdkCurrentName = /^(openai7|ai7|ai-sdk-provider-v4|ai-sdk-openai-compatible-v3|langchain-openai-current|openai-agents-current)(\/|$)/

export default defineConfig({
  plugins: [
    {
      name: 'toolsieve-sdk-current',
      enforce: 'pre',
      resolveId(source, _importer, options) {
        return sdkCurrentName.test(source) ? this.resolve(source, sdkCurrent, { ...options, skipSelf: true }) : null
      },
    },
  ],
  resolve: {
    // the examples import the package by its name, as users do; here that name is the sources (tsconfig `paths` too)
    alias: [
      { find: /^toolsieve$/, replacement: src('index.ts') },
      { find: /^toolsieve\/node$/, replacement: src('node.ts') },
      { find: /^toolsieve\/stream$/, replacement: src('stream.ts') },
      { find: /^toolsieve\/(openai|anthropic|ai-sdk|fetch)$/, replacement: src('$1/index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
})
