import type { AgentEvent, ExecRun } from '@nestor/core'
import { dbosSdk } from './peer.js'
import { EVENTS_STREAM } from './topics.js'

/** An event of a durable run with its position in the run's stream (1 = the first event). */
export type DurableEvent = AgentEvent & { position: number }

/**
 * Copies a run's events, nested ones included, into the workflow's DBOS stream in order. The
 * stream lags the loop a little, so a killed process may have recorded steps whose events never
 * reached the stream. A recovered run replays those steps (`replayed: true`): each replayed event
 * is written unless the stream already holds the same event from the run that recorded it.
 */
export async function writeEvents(workflowId: string, run: ExecRun): Promise<void> {
  const { DBOS } = dbosSdk()
  let written: Map<string, number> | undefined
  for await (const event of run) {
    if ((event as { replayed?: boolean }).replayed) {
      written ??= await writtenEvents(workflowId)
      const key = identity(event)
      const left = written.get(key) ?? 0
      if (left > 0) {
        written.set(key, left - 1)
        continue
      }
    }
    await DBOS.writeStream(EVENTS_STREAM, event)
  }
}

/** What identifies a replayable event across runs: execIds are new in a recovered run, call ids and messages are not. */
function identity(event: AgentEvent): string {
  if (event.type === 'tool_start' || event.type === 'tool_end') return `${event.type} ${event.toolCallId}`
  if (event.type === 'message_start' || event.type === 'message_end')
    return `${event.type} ${event.depth} ${JSON.stringify(event.message.content)}`
  return `${event.type} ${event.depth}`
}

/** How many times each identity is in the stream already (read without waiting for more). */
async function writtenEvents(workflowId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  try {
    for await (const event of dbosSdk().DBOS.readStream<AgentEvent>(workflowId, EVENTS_STREAM, {
      timeoutSeconds: 0.2,
      pollingIntervalMs: 50,
    })) {
      const key = identity(event)
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  } catch {
    // The timeout after the last event written so far: that is the end of what exists.
  }
  return counts
}

export async function* readEvents(workflowId: string, after: number): AsyncGenerator<DurableEvent> {
  let position = Math.max(0, after)
  const { DBOS } = dbosSdk()
  for await (const event of DBOS.readStream<AgentEvent>(workflowId, EVENTS_STREAM, { offset: position })) {
    position++
    yield { ...event, position }
  }
}
