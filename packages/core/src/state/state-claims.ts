import { NestorError, messageOf } from '../contract/errors.js'

/**
 * How an app claims a state: true when this caller is the first to resume it, false when it was
 * spent. `expiresAt` is when the state stops being resumable: the claim is worth keeping until then.
 */
export type ClaimState = (stateId: string, claim: { expiresAt: number }) => boolean | Promise<boolean>

/** A claim answered asynchronously: resolves to the error that refuses the resume, or undefined. */
export type PendingClaim = Promise<NestorError | undefined>

// The default store: every state resumed in this process, across runtimes, each kept until its
// state expires (resume refuses it from then on, so the claim has nothing left to guard). Expired
// claims are swept whenever the store has doubled since the last sweep: amortized O(1) a claim.
const claimed = new Map<string, number>()
let sweepAt = 1024

function claimInProcess(stateId: string, expiresAt: number, now: number): boolean {
  const known = claimed.get(stateId)
  if (known !== undefined && known > now) return false
  if (claimed.size >= sweepAt) {
    for (const [id, until] of claimed) if (until <= now) claimed.delete(id)
    sweepAt = Math.max(1024, claimed.size * 2)
  }
  claimed.set(stateId, expiresAt)
  return true
}

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
export function claimState(hook: ClaimState | undefined, stateId: string, expiresAt: number): PendingClaim | undefined {
  if (!hook) {
    if (!claimInProcess(stateId, expiresAt, Date.now())) throw spent(stateId)
    return undefined
  }
  let answer: boolean | Promise<boolean>
  try {
    answer = hook(stateId, { expiresAt })
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
