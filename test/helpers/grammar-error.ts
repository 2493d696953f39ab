/** Runs `run` and returns the GrammarError it must throw. */
import { expect } from 'vitest'
import { GrammarError } from '../../src/errors.js'

export function caught(run: () => unknown): GrammarError {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(GrammarError)
    return error as GrammarError
  }
  throw new Error('expected a GrammarError')
}
