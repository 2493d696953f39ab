/** Runs `run` and returns the error it must throw: a GrammarError, or of the class `type` names. */
import { expect } from 'vitest'
import { GrammarError } from '../../src/errors.js'

export function caught(run: () => unknown): GrammarError
export function caught<E extends Error>(run: () => unknown, type: abstract new (...args: never[]) => E): E
export function caught(run: () => unknown, type: abstract new (...args: never[]) => Error = GrammarError): Error {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(type)
    return error as Error
  }
  throw new Error(`expected a ${type.name}`)
}
