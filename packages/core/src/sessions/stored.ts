import { NestorError } from '../contract/errors.js'
import { stateSchemas } from '../contract/run-state-schema.js'
import type { SessionStore, SessionStoreOptions } from '../contract/session-types.js'
import type { Message } from '../contract/types.js'
import { pairingProblem } from '../options/supplied-history.js'
import { surelyWellFormed } from './well-formed.js'

/**
 * A session's stored messages, checked as they are read: each a well-formed message and every
 * tool call answered. A row that is not (a corrupted file, a hand edit) fails `invalid_state`
 * naming the session, so a bad row never reaches a provider nor crashes the reader.
 */
export function checkStoredMessages(sessionId: string, rows: readonly unknown[]): Message[] {
  for (const [i, row] of rows.entries()) {
    if (surelyWellFormed(row)) continue
    const parsed = stateSchemas().messageSchema.safeParse(row)
    if (!parsed.success)
      throw new NestorError(
        'invalid_state',
        `session ${sessionId}: stored message ${i} is not a well-formed message (${parsed.error.issues[0]?.message ?? 'bad row'})`,
      )
  }
  const messages = rows as Message[]
  const problem = pairingProblem(messages)
  if (problem)
    throw new NestorError(
      'invalid_state',
      `session ${sessionId}: stored history is broken at message ${problem.index}: ${problem.why((i) => `message ${i}`)}`,
    )
  return messages
}

/** A row's JSON, or `invalid_state` naming the session when it is not JSON. */
export function parseStoredRow(sessionId: string, json: string): unknown {
  try {
    return JSON.parse(json) as unknown
  } catch {
    throw new NestorError('invalid_state', `session ${sessionId}: a stored row is not JSON`)
  }
}

/** `fork(id, { at })`: `at` must be a whole count that cuts between turns (every call before it answered). */
export function checkForkCut(sessionId: string, messages: readonly Message[], at: number): Message[] {
  if (!Number.isInteger(at) || at < 0 || at > messages.length)
    throw new NestorError(
      'invalid_options',
      `invalid option at: expected an integer in 0..${messages.length}, got ${at}`,
    )
  const kept = messages.slice(0, at)
  if (pairingProblem(kept))
    throw new NestorError(
      'invalid_options',
      `invalid option at: message ${at} of session ${sessionId} is inside a tool round`,
    )
  return kept
}

/** A page size: 1..100, 20 when not given. */
export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return 20
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new NestorError('invalid_options', `invalid option limit: expected an integer in 1..100, got ${limit}`)
  return limit
}

/** Ids and owners are short non-empty strings (an id may come from a URL). */
export function checkKey(name: 'id' | 'owner', value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw new NestorError(
      'invalid_options',
      `invalid option ${name}: expected a non-empty string of at most 200 characters`,
    )
  return value
}

/** The `limits` a store declares, spread into the store: the exec checks them before a write. */
export function storeLimits(options: SessionStoreOptions): Pick<SessionStore, 'limits'> {
  const { maxMessages, maxBytes } = options
  return maxMessages !== undefined || maxBytes !== undefined ? { limits: { maxMessages, maxBytes } } : {}
}

/** Milliseconds of a retention in days (Infinity without one); checks the store's bounds on the way. */
export function retentionMs(options: SessionStoreOptions): number {
  const { maxMessages, maxBytes, retention } = options
  for (const [name, value] of [
    ['maxMessages', maxMessages],
    ['maxBytes', maxBytes],
  ] as const)
    if (value !== undefined && !(Number.isInteger(value) && value > 0))
      throw new NestorError(
        'invalid_options',
        `invalid option ${name}: expected a positive integer, got ${String(value)}`,
      )
  if (retention === undefined) return Infinity
  const days = (retention as { days?: unknown }).days
  if (typeof days !== 'number' || !(days >= 0))
    throw new NestorError(
      'invalid_options',
      `invalid option retention.days: expected a number of days ≥ 0, got ${String(days)}`,
    )
  return days * 86_400_000
}
