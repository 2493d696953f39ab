/**
 * One middleware object for both SDK lines, checked by the compiler
 * (`tsc --noEmit` covers test/): `toolsieveMiddleware()` is assignable to
 * the `ai` 6 line's `LanguageModelV3Middleware` and to what the `ai` 7 line's
 * `wrapLanguageModel` takes (V4 middleware, any specification version), and
 * the wrapped models keep each line's model type.
 */
import type { LanguageModelV3, LanguageModelV3Middleware } from '@ai-sdk/provider'
import type { LanguageModelMiddleware as Ai6Middleware, wrapLanguageModel as wrap6 } from 'ai'
import type { LanguageModelMiddleware as Ai7Middleware, wrapLanguageModel as wrap7 } from 'ai7'
import type { LanguageModelV4, LanguageModelV4Middleware } from 'ai-sdk-provider-v4'
import { describe, expect, it } from 'vitest'
import { toolsieveMiddleware, type ToolsieveMiddleware } from '../../src/ai-sdk/index.js'

const middleware = toolsieveMiddleware()
const v3: LanguageModelV3Middleware = middleware
const ai6: Ai6Middleware = middleware
const ai7: Ai7Middleware = middleware
const v4: Omit<LanguageModelV4Middleware, 'specificationVersion'> = middleware

/** Never called: the compiler checks that each line's wrapLanguageModel takes the middleware and gives its own model type. */
export function wrapBoth(w6: typeof wrap6, w7: typeof wrap7, m3: LanguageModelV3, m4: LanguageModelV4): [LanguageModelV3, LanguageModelV4] {
  return [w6({ model: m3, middleware }), w7({ model: m4, middleware: toolsieveMiddleware({ dialect: 'xml' }) })]
}

describe('toolsieveMiddleware types', () => {
  it('should support one object for the V3 and V4 middleware types, with all three hooks', () => {
    const all: ToolsieveMiddleware[] = [v3, ai6, ai7, v4].map(() => middleware)
    expect(all.every((m) => m.specificationVersion === 'v3')).toBe(true)
    expect([typeof v3.transformParams, typeof ai7.wrapStream, typeof v4.wrapGenerate]).toEqual(['function', 'function', 'function'])
  })
})
