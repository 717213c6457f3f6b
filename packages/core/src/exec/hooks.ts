import { ABORTED, raceAbort } from '../base/abort-watch.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { ExecContext } from './context.js'

/**
 * Runs an app hook, turning what it throws into `hook_error`: a failing hook is the app's
 * problem, neither the provider's nor Nestor's, and the code says so.
 */
export async function callHook<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (NestorError.isInstance(error)) throw error
    throw new NestorError('hook_error', `the ${name} hook threw: ${messageOf(error)}`, { cause: error })
  }
}

/** What an unexpected throw inside the loop becomes: a bug in Nestor unless it is already typed. */
export const asInternal = (thrown: unknown): NestorError =>
  NestorError.isInstance(thrown)
    ? thrown
    : new NestorError('internal', `internal error (a bug in Nestor, please report it): ${messageOf(thrown)}`, {
        cause: thrown,
      })

/** A hook's answer, or undefined as soon as the exec aborts (a hook may never settle). */
export async function hookUntilAbort<T>(
  ctx: ExecContext,
  hook: () => T | Promise<T> | undefined,
): Promise<T | undefined> {
  // Called at once (an async wrapper turns a synchronous throw into a rejection).
  const answer = await raceAbort((async () => hook())(), ctx.control.controller.signal)
  return answer === ABORTED ? undefined : answer
}
