import { dbos, dbosSdk, isMissingWorkflow } from './peer.js'
import type { AgentEvent, AssistantMessage, ExecResult, ExecRun } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { EVENTS_STREAM } from './topics.js'

/** An event of a durable run with its position in the run's stream (1 = the first event). */
export type DurableEvent = AgentEvent & { position: number }

/**
 * One row of a run's event stream: the events at positions `at + 1` … `at + events.length`. A
 * row per event was a commit per event: a leg writes one row per batch instead (what queued while
 * the previous row was written), so rows follow the database's pace, not the model's. A row that
 * is a bare event (written before batching) holds that one event.
 */
type EventRow = { at: number; events: AgentEvent[] }

/** How long a batch of events gathers before its row is written: what live readers wait at most, beyond the write. */
const BATCH_MS = 50

// Rows are JSON already (errors made plain objects): written as plain JSON, not DBOS's default
// superjson, whose walk over every event was the worker's largest serialization cost.
const PLAIN_JSON = { serializationType: 'portable' } as const

/** What a leg finds in the stream as it starts: how many events it holds, and those of an earlier attempt of this leg. */
export type StreamSoFar = { count: number; recovered: boolean; earlier: AgentEvent[] }

/**
 * Reads the stream a leg is about to write to: events after the `leg`-th root `agent_end` are an
 * earlier attempt's (a process running this leg died). A first leg's read of an empty stream is
 * one query, sent beside the leg's journal read; only the leg's first stream row waits for it.
 */
export async function streamSoFar(workflowId: string, leg: number): Promise<StreamSoFar> {
  const events = await writtenSoFar(workflowId)
  let ends = 0
  let from = 0
  for (let i = 0; i < events.length && ends < leg; i++) {
    const event = events[i]!
    if (event.type === 'agent_end' && event.depth === 0 && ++ends === leg) from = i + 1
  }
  const earlier = events.slice(from)
  return { count: events.length, recovered: earlier.length > 0, earlier }
}

/**
 * Copies a run's events, nested ones included, into the workflow's DBOS stream in order: one row
 * per batch (what came within BATCH_MS, or while the previous row was written), consecutive
 * deltas of one message merged into one (a delta is a chunk of any size). A write in flight never
 * holds the run up; the step waits only for the last row at its end.
 *
 * A recovered leg (`soFar.recovered`) already wrote part of its events, so the re-run writes only
 * what is new: not a second `agent_start` or `turn_start`, not the steps it replays from the
 * journal; and the message that was streaming at the crash gets a `message_end` with
 * `abandoned: true` before the turn streams again, so readers drop its deltas. Resolves to
 * whether it wrote the run's last event (`endsTheRun`).
 */
export async function writeEvents(workflowId: string, run: ExecRun, soFar: Promise<StreamSoFar>): Promise<boolean> {
  const pending: AgentEvent[] = []
  let wake: (() => void) | undefined
  let ended = false
  let end: () => void = () => undefined
  const over = new Promise<void>((resolve) => (end = resolve))
  const reading = (async () => {
    try {
      for await (const event of run) {
        pending.push(event)
        wake?.()
      }
    } finally {
      ended = true
      end()
      wake?.()
    }
  })()
  // Awaited at the end; a write that fails first leaves it without a reader otherwise.
  reading.catch(() => undefined)
  // Read from the first event on (above) while finding out what an earlier attempt wrote.
  const stream = await soFar
  const seen = stream.recovered ? earlierAttempt(stream.earlier) : undefined
  let at = stream.count
  let final = false
  const write = async (events: AgentEvent[]) => {
    if (events.length === 0) return
    await dbos().writeStream(EVENTS_STREAM, { at, events: events.map(withPlainErrors) } satisfies EventRow, PLAIN_JSON)
    at += events.length
    final ||= events.some(endsTheRun)
  }
  if (seen) await write(seen.abandoned)
  for (;;) {
    if (pending.length === 0) {
      if (ended) break
      await new Promise<void>((resolve) => (wake = resolve))
      wake = undefined
      continue
    }
    // A batch gathers for a moment (each row is a commit, and a notification to readers), and goes
    // at once when the run ends: the step then waits for this last row only.
    if (!ended) await Promise.race([over, new Promise((resolve) => setTimeout(resolve, BATCH_MS))])
    await write(coalesce(pending.splice(0)).filter((event) => !seen?.skip(event)))
  }
  await reading
  return final
}

/**
 * The run's last event: a root `agent_end` that is not a pause. Readers stop there, so a run that
 * wrote it needs no close marker (a commit); one whose step failed before it is closed instead.
 */
export const endsTheRun = (event: AgentEvent): boolean =>
  event.type === 'agent_end' && event.depth === 0 && event.result.status !== 'paused'

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
 * The events an earlier attempt of this leg wrote, as counts per identity, and an `abandoned` end
 * for each message it left streaming.
 */
function earlierAttempt(events: AgentEvent[]): { skip(event: AgentEvent): boolean; abandoned: AgentEvent[] } {
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

/** The events a run's stream holds now: a read that stops at the first offset not written yet. */
async function writtenSoFar(workflowId: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = []
  try {
    for await (const row of dbos().readStream<EventRow | AgentEvent>(workflowId, EVENTS_STREAM, { timeoutSeconds: 0 }))
      events.push(...eventsOf(row))
  } catch (error) {
    // The end of what exists (or no such workflow yet); anything else is the caller's to handle.
    if (!dbosSdk().Error.isStreamTimeoutError(error) && !isMissingWorkflow(error)) throw error
  }
  return events
}

const eventsOf = (row: EventRow | AgentEvent): AgentEvent[] => ('events' in row ? row.events : [row])
/** The position before a row's first event (a bare event's row `r` holds position `r + 1`). */
const atOf = (row: EventRow | AgentEvent, offset: number): number => ('events' in row ? row.at : offset)

/**
 * Ends the stream of a run cancelled while it waited for a decision: its paused leg's root
 * `agent_end`, again, now `aborted`, so a reader's last event says how the run ended (a stream
 * without one is closed instead).
 */
export async function writeCancelledEnd(workflowId: string, paused: ExecResult): Promise<ExecResult> {
  const { pending: _pending, ...rest } = paused
  const result: ExecResult = {
    ...rest,
    status: 'aborted',
    error: new NestorError('aborted', `run ${workflowId} was cancelled`),
  }
  const events = await writtenSoFar(workflowId)
  const last = events.findLast((event) => event.type === 'agent_end' && event.depth === 0)
  if (last?.type === 'agent_end') {
    const end = withPlainErrors({ ...last, seq: last.seq + 1, timestamp: Date.now(), result })
    await dbos().writeStream(EVENTS_STREAM, { at: events.length, events: [end] } satisfies EventRow, PLAIN_JSON)
  } else await dbos().closeStream(EVENTS_STREAM)
  return withPlainError(result)
}

/** The run's events after position `after`, each with its position, live until the run's last event (or the stream's close). */
export async function* readEvents(workflowId: string, after: number): AsyncGenerator<DurableEvent> {
  const skip = Math.max(0, after)
  const { offset, at } = skip === 0 ? { offset: 0, at: 0 } : await rowHolding(workflowId, skip + 1)
  let position = at
  for await (const row of dbos().readStream<EventRow | AgentEvent>(workflowId, EVENTS_STREAM, { offset }))
    for (const event of eventsOf(row)) {
      if (++position > skip) yield { ...event, position }
      // Past it, only a re-run of a leg that died after writing it writes (what it wrote again).
      if (endsTheRun(event)) return
    }
}

/**
 * The row to read from for position `position`: the last row starting at or before it, found by
 * halving (a row holds at least one event, so it is at an offset below the position). Reads only
 * what is written now; a position not written yet starts at the last row.
 */
async function rowHolding(workflowId: string, position: number): Promise<{ offset: number; at: number }> {
  let found = { offset: 0, at: 0 }
  let low = 1
  let high = position - 1
  while (low <= high) {
    const middle = Math.floor((low + high) / 2)
    const row = await dbos()
      .readStreamOffset<EventRow | AgentEvent>(workflowId, EVENTS_STREAM, middle, { timeoutSeconds: 0 })
      .catch(() => undefined)
    const at = row === undefined ? undefined : atOf(row, middle)
    if (at !== undefined && at < position) {
      found = { offset: middle, at }
      low = middle + 1
    } else high = middle - 1
  }
  return found
}
