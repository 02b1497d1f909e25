import {expect} from 'vitest'
import {CairnError} from '../../src/domain/errors.js'

/** Runs fn, which must throw a CairnError with code 'validation', and returns it. */
export function validationFailure(fn: () => unknown): CairnError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(CairnError)
    expect((error as CairnError).code).toBe('validation')
    return error as CairnError
  }
  throw new Error('expected a validation error')
}
