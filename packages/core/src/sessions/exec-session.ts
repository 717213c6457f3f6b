import { sleep } from '../base/sleep.js'
import { NestorError, messageOf } from '../contract/errors.js'
import type { SessionOptions, SessionStore } from '../contract/session-types.js'
import type { Message } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { checkStoredMessages } from './stored.js'

/** How long a writer's lease runs without renewal: a crashed writer holds its session this long at most. */
const LEASE_MS = 30_000

/** What an exec writing a session keeps: the store, its lease, and what is already stored. */
type Writer = {
  store: SessionStore
  id: string
  owner: string
  holder: string
  run: string
  /** The history as last stored (the same message objects): what the next write starts after. */
  saved: Message[]
  count: number
  bytes: number
  heartbeat: ReturnType<typeof setInterval>
}

// Per exec, never stored: an exec without a session has no entry and pays nothing.
const writers = new WeakMap<ExecContext, Writer>()

/**
 * At exec open: takes the session's lease (or waits for it with `wait`), then puts the stored
 * conversation before the input. Returns the error that refuses the exec before any request.
 */
export async function openSession(
  ctx: ExecContext,
  store: SessionStore,
  options: SessionOptions,
  resumed?: { pausedAt: Message },
): Promise<NestorError | undefined> {
  const { id, owner } = options
  const run = ctx.journal?.tree.runId ?? ctx.execId
  const lease = { owner, holder: ctx.execId, leaseMs: LEASE_MS }
  try {
    const refused = await acquire(ctx, store, id, lease, options.wait === true)
    if (refused) return refused
    // A replayed run starts from what the session held before its first write, as it did the first time.
    const stored = checkStoredMessages(id, await store.load(id, { owner, run }))
    const history = ctx.state.history
    let saved: Message[]
    if (resumed) {
      // The history is the paused exec's: stored up to the end of its last finished turn.
      saved = history.slice(0, lastWrite(history, ctx.state.startIndex, resumed.pausedAt))
    } else {
      history.splice(0, 0, ...stored)
      ctx.state.startIndex += stored.length
      for (const m of stored)
        if (m.role === 'assistant')
          for (const b of m.content) if (b.type === 'toolCall') ctx.state.toolCallIds.add(b.id)
      saved = stored
    }
    const heartbeat = setInterval(() => void store.acquire(id, lease).catch(() => undefined), LEASE_MS / 3)
    heartbeat.unref?.()
    // Bytes are counted only for a store that bounds them (a JSON walk of every message otherwise wasted).
    const bytes = store.limits?.maxBytes === undefined ? 0 : stored.reduce((sum, m) => sum + sizeOf(m), 0)
    writers.set(ctx, { store, id, owner, holder: ctx.execId, run, saved, count: stored.length, bytes, heartbeat })
    return undefined
  } catch (error) {
    await store.release(id, lease).catch(() => undefined)
    return storeError(error, id)
  }
}

/**
 * At the end of each turn: stores what the turn added, in one write. A turn whose calls are not
 * all answered (a pause) is not stored yet; a history a compaction rewrote replaces the stored one.
 */
export async function saveTurn(ctx: ExecContext): Promise<void> {
  const writer = writers.get(ctx)
  if (!writer || !storable(ctx.state.history)) return
  const history = ctx.state.history
  const { saved } = writer
  const kept = history.length >= saved.length && saved.every((m, i) => history[i] === m)
  const added = kept ? history.slice(saved.length) : history.slice()
  if (added.length === 0) return
  // Registered secrets never reach the store.
  const messages = ctx.env.redact(added)
  const { maxMessages = Infinity, maxBytes = Infinity } = writer.store.limits ?? {}
  const size = maxBytes === Infinity ? 0 : messages.reduce((sum, m) => sum + sizeOf(m), 0)
  const count = kept ? writer.count + messages.length : messages.length
  const bytes = kept ? writer.bytes + size : size
  if (count > maxMessages || bytes > maxBytes)
    throw new NestorError(
      'session_full',
      `session ${writer.id} would hold ${count} messages (${bytes} bytes), over its limit of ${maxMessages} messages / ${maxBytes} bytes`,
    )
  const write = {
    owner: writer.owner,
    holder: writer.holder,
    run: writer.run,
    turn: ctx.state.iterationsUsed,
    messages,
  }
  try {
    await writer.store.append(writer.id, kept ? write : { ...write, replace: true })
  } catch (error) {
    throw storeError(error, writer.id)
  }
  writer.saved = history.slice()
  writer.count = count
  writer.bytes = bytes
}

/** When the exec ends (any way): the lease is given up, so the next exec need not wait for it to run out. */
export async function closeSession(ctx: ExecContext): Promise<void> {
  const writer = writers.get(ctx)
  if (!writer) return
  writers.delete(ctx)
  clearInterval(writer.heartbeat)
  const lease = { owner: writer.owner, holder: writer.holder, leaseMs: LEASE_MS }
  // A store gone away cannot be told: the lease then runs out by itself.
  await writer.store.release(writer.id, lease).catch(() => undefined)
}

async function acquire(
  ctx: ExecContext,
  store: SessionStore,
  id: string,
  lease: { owner: string; holder: string; leaseMs: number },
  wait: boolean,
): Promise<NestorError | undefined> {
  const signal = ctx.control.controller.signal
  for (let delay = 25; ; delay = Math.min(delay * 2, 500)) {
    const got = await store.acquire(id, lease)
    if (got === 'acquired') return undefined
    if (got === 'not_found') return new NestorError('not_found', `no session ${id}`)
    if (!wait) return new NestorError('session_busy', `session ${id} is being written by another exec`)
    if (!(await sleep(delay, signal)))
      return new NestorError('aborted', `exec ${ctx.execId} was aborted while waiting for session ${id}`)
  }
}

/** Where a paused exec's last write ended: after the last turn it finished (its input is stored with its first). */
function lastWrite(history: Message[], startIndex: number, pausedAt: Message): number {
  const paused = history.lastIndexOf(pausedAt)
  for (let i = paused - 1; i >= startIndex; i--) if (history[i]?.role !== 'user') return i + 1
  return startIndex
}

/**
 * True when the last turn may be stored: every call of it answered, and the model call did not
 * fail (a failed or aborted turn ends the exec; the next one starts after the last good turn).
 */
function storable(history: Message[]): boolean {
  const last = history.findLastIndex((m) => m.role === 'assistant')
  const message = history[last]
  if (!message || message.role !== 'assistant') return true
  if (message.stopReason === 'error' || message.stopReason === 'aborted') return false
  const open = new Set(message.content.flatMap((b) => (b.type === 'toolCall' ? [b.id] : [])))
  for (let i = last + 1; i < history.length; i++) {
    const m = history[i]
    if (m?.role === 'toolResult') open.delete(m.toolCallId)
  }
  return open.size === 0
}

const utf8 = new TextEncoder()
const sizeOf = (message: Message): number => utf8.encode(JSON.stringify(message)).length

/** A store's own failure, as `store_error` naming the session (a NestorError it threw passes as it is). */
function storeError(error: unknown, id: string): NestorError {
  if (NestorError.isInstance(error)) return error
  return new NestorError('store_error', `session ${id}: the session store failed: ${messageOf(error)}`, {
    cause: error,
  })
}
