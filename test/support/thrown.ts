import { NestorError } from '@nestor/core'

/** The NestorError `fn` throws synchronously (fails the test if it throws nothing, or something else). */
export function thrown(fn: () => unknown): NestorError {
  try {
    fn()
  } catch (error) {
    if (NestorError.isInstance(error)) return error
    throw error
  }
  throw new Error('expected a NestorError')
}
