import { NestorError, messageOf } from './errors.js'

/** How an app claims a state: true when this caller is the first to resume it, false when it was spent. */
export type ClaimState = (stateId: string) => boolean | Promise<boolean>

/** A claim answered asynchronously: resolves to the error that refuses the resume, or undefined. */
export type PendingClaim = Promise<NestorError | undefined>

// The default store: every state resumed in this process, across runtimes. It only grows, by one
// short id per resume; an app that resumes across processes (or wants expiry) passes `claimState`.
const claimed = new Set<string>()

const spent = (stateId: string) =>
  new NestorError(
    'invalid_state',
    `invalid RunState: already resumed (state ${stateId}); a paused state runs its approved calls once`,
  )

const hookFailed = (error: unknown) =>
  new NestorError('hook_error', `the claimState hook failed: ${messageOf(error)}`, { cause: error })

/**
 * Claims a state for one resume. Synchronous answers (the default store, a sync hook) throw at
 * `resume()`; an asynchronous hook's answer is awaited before the exec runs anything.
 */
export function claimState(hook: ClaimState | undefined, stateId: string): PendingClaim | undefined {
  if (!hook) {
    if (claimed.has(stateId)) throw spent(stateId)
    claimed.add(stateId)
    return undefined
  }
  let answer: boolean | Promise<boolean>
  try {
    answer = hook(stateId)
  } catch (error) {
    throw hookFailed(error)
  }
  if (answer === true) return undefined
  if (answer === false) throw spent(stateId)
  if (answer !== null && typeof answer === 'object' && typeof answer.then === 'function') {
    return Promise.resolve(answer).then(
      (ok) =>
        ok === true
          ? undefined
          : ok === false
            ? spent(stateId)
            : hookFailed(new TypeError('claimState must resolve to a boolean')),
      hookFailed,
    )
  }
  throw hookFailed(new TypeError(`claimState must return a boolean or a Promise of one, got ${typeof answer}`))
}
