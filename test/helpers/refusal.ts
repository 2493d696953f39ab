import { expect } from 'vitest'
import { ToolsieveError } from '../../src/errors.js'

/** The ToolsieveError `run` throws; the test fails if it throws anything else or nothing. */
export function refusal(run: () => unknown): ToolsieveError {
  try {
    run()
  } catch (e) {
    expect(e).toBeInstanceOf(ToolsieveError)
    return e as ToolsieveError
  }
  throw new Error('not refused')
}
