import { dbos } from './peer.js'
import type { AgentEvent, AssistantMessage, ExecResult, ExecRun } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { EVENTS_STREAM } from './topics.js'

/** An event of a durable run with its position in the run's stream (1 = the first event). */
export type DurableEvent = AgentEvent & { position: number }

/**
 * Copies a run's events, nested ones included, into the workflow's DBOS stream in order. One
 * insert per event was the cost of a stream (a transaction each, per delta): events that queue
 * while a write is in flight go out together, consecutive deltas of one message merged into one
 * (a delta is a chunk of any size), so inserts follow the database's pace, not the model's.
 *
 * `recovered`: this leg already ran in a process that died. Its events so far are in the stream,
 * so the re-run writes only what is new: not a second `agent_start` or `turn_start`, not the steps
 * it replays from the journal; and the message that was streaming at the crash gets a
 * `message_end` with `abandoned: true` before the turn streams again, so readers drop its deltas.
 */
export async function writeEvents(workflowId: string, run: ExecRun, recovered: Promise<boolean>): Promise<void> {
  const pending: AgentEvent[] = []
  let wake: (() => void) | undefined
  let ended = false
  const reading = (async () => {
    try {
      for await (const event of run) {
        pending.push(event)
        wake?.()
      }
    } finally {
      ended = true
      wake?.()
    }
  })()
  // Awaited at the end; a write that fails first leaves it without a reader otherwise.
  reading.catch(() => undefined)
  // Read from the first event on (above) while finding out what an earlier attempt wrote.
  const seen = (await recovered) ? await earlierAttempt(workflowId) : undefined
  if (seen) for (const end of seen.abandoned) await dbos().writeStream(EVENTS_STREAM, end)
  for (;;) {
    if (pending.length === 0) {
      if (ended) break
      await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
      continue
    }
    for (const event of coalesce(pending.splice(0))) {
      if (seen && seen.skip(event)) continue
      await dbos().writeStream(EVENTS_STREAM, withPlainErrors(event))
    }
  }
  await reading
}

/**
 * DBOS serializes an Error as its name and message only: an error's `code` (what a reader acts on)
 * would not reach the stream. The errors events carry go as plain objects with their fields.
 */
function withPlainErrors(event: AgentEvent): AgentEvent {
  if (event.type === 'agent_end' && event.result.error) return { ...event, result: withPlainError(event.result) }
  if (event.type === 'retry') return { ...event, error: plainError(event.error) }
  return event
}

/** The same for a result a step returns (DBOS records it, and `result()` reads it back). */
export function withPlainError(result: ExecResult): ExecResult {
  return result.error ? { ...result, error: plainError(result.error) } : result
}

type ErrorLike = NonNullable<ExecResult['error']>
function plainError(error: ErrorLike): ErrorLike {
  return { ...error, name: error.name, message: error.message } as ErrorLike
}

/** Merges runs of text (or thinking, or one call's argument) deltas of the same exec into one delta each. */
export function coalesce(events: AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = []
  for (const event of events) {
    const last = out.at(-1)
    if (event.type === 'message_delta' && last?.type === 'message_delta' && last.execId === event.execId) {
      const a = last.delta
      const b = event.delta
      if (a.kind !== 'toolCall' && b.kind === a.kind) {
        out[out.length - 1] = { ...last, delta: { kind: a.kind, text: a.text + b.text } }
        continue
      }
      if (a.kind === 'toolCall' && b.kind === 'toolCall' && a.id === b.id) {
        out[out.length - 1] = { ...last, delta: { ...a, argumentsDelta: a.argumentsDelta + b.argumentsDelta } }
        continue
      }
    }
    out.push(event)
  }
  return out
}

/** What identifies an event across attempts of one leg: execIds of a root are new in a re-run, depths, call ids and messages are not. */
function identity(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'tool_start':
    case 'tool_end':
      return `${event.type} ${event.toolCallId}`
    case 'message_start':
    case 'message_end':
      // By order within a depth: a re-run replays the same messages in the same order.
      return `${event.type} ${event.depth} ${event.message.role}`
    case 'turn_start':
    case 'turn_end':
      return `${event.type} ${event.depth} ${event.iteration}`
    case 'agent_start':
      // A child keeps its execId only when the journal gives it back: match it by that id.
      return event.depth === 0 ? 'agent_start 0' : `agent_start ${event.execId}`
    case 'approval_required':
      return `${event.type} ${event.depth}`
    default:
      // Deltas, updates, retries: a re-run's are new (the abandoned ones are marked, not matched).
      return undefined
  }
}

/**
 * The events an earlier attempt of this leg wrote (after the previous leg's root `agent_end`), as
 * counts per identity, and an `abandoned` end for each message it left streaming.
 */
async function earlierAttempt(
  workflowId: string,
): Promise<{ skip(event: AgentEvent): boolean; abandoned: AgentEvent[] }> {
  let events: AgentEvent[] = []
  for (const event of await writtenSoFar(workflowId)) {
    events.push(event)
    if (event.type === 'agent_end' && event.depth === 0) events = []
  }
  const open = new Map<string, { start: AgentEvent; text: string }>()
  for (const event of events) {
    if (event.type === 'message_start') open.set(event.execId, { start: event, text: '' })
    else if (event.type === 'message_end') open.delete(event.execId)
    else if (event.type === 'message_delta' && event.delta.kind === 'text') {
      const streaming = open.get(event.execId)
      if (streaming) streaming.text += event.delta.text
    }
  }
  const counts = new Map<string, number>()
  const abandonedStarts = new Set([...open.values()].map((o) => o.start))
  for (const event of events) {
    const key = abandonedStarts.has(event) ? undefined : identity(event)
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  const abandoned = [...open.values()].reverse().map(({ start, text }): AgentEvent => {
    const message: AssistantMessage = {
      role: 'assistant',
      content: text ? [{ type: 'text', text }] : [],
      stopReason: 'aborted',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      provider: 'nestor-dbos',
      model: '',
      errorMessage: 'the process running this turn was lost; the turn runs again',
    }
    return { ...start, type: 'message_end', message, abandoned: true, timestamp: Date.now() } as AgentEvent
  })
  return {
    abandoned,
    skip(event) {
      const key = identity(event)
      const left = key === undefined ? 0 : (counts.get(key) ?? 0)
      if (left === 0 || key === undefined) return false
      counts.set(key, left - 1)
      return true
    },
  }
}

/** The events a run's stream holds now (a read that stops at the first wait). */
async function writtenSoFar(workflowId: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = []
  try {
    for await (const event of dbos().readStream<AgentEvent>(workflowId, EVENTS_STREAM, {
      timeoutSeconds: 0.2,
      pollingIntervalMs: 50,
    }))
      events.push(event)
  } catch {
    // The timeout after the last event written so far: that is the end of what exists.
  }
  return events
}

/**
 * Ends the stream of a run cancelled while it waited for a decision: its paused leg's root
 * `agent_end`, again, now `aborted`, so a reader's last event says how the run ended.
 */
export async function writeCancelledEnd(workflowId: string, paused: ExecResult): Promise<ExecResult> {
  const { pending: _pending, ...rest } = paused
  const result: ExecResult = {
    ...rest,
    status: 'aborted',
    error: new NestorError('aborted', `run ${workflowId} was cancelled`),
  }
  const last = (await writtenSoFar(workflowId)).findLast((event) => event.type === 'agent_end' && event.depth === 0)
  if (last?.type === 'agent_end')
    await dbos().writeStream(
      EVENTS_STREAM,
      withPlainErrors({ ...last, seq: last.seq + 1, timestamp: Date.now(), result }),
    )
  return withPlainError(result)
}

export async function* readEvents(workflowId: string, after: number): AsyncGenerator<DurableEvent> {
  let position = Math.max(0, after)
  for await (const event of dbos().readStream<AgentEvent>(workflowId, EVENTS_STREAM, { offset: position })) {
    position++
    yield { ...event, position }
  }
}
