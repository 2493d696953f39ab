import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string): string => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
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
