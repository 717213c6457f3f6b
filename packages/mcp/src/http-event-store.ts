import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

/** Events one session keeps for replay, at most, by count and by serialized size. */
export const REPLAY_MAX_EVENTS = 1000
export const REPLAY_MAX_BYTES = 1024 * 1024

type Stored = { streamId: StreamId; message: JSONRPCMessage; bytes: number }

/**
 * The SSE events of one MCP session, so a client whose stream broke mid-call reconnects with
 * `Last-Event-ID` and gets what it missed. One store per session, dropped with it; past either
 * cap the oldest events go, and a reconnect naming an evicted event gets the SDK's 400.
 */
export class SessionEventStore implements EventStore {
  /** In insertion order, so the first entry is the oldest. */
  readonly #events = new Map<EventId, Stored>()
  #bytes = 0
  #next = 0

  constructor(
    private readonly maxEvents = REPLAY_MAX_EVENTS,
    private readonly maxBytes = REPLAY_MAX_BYTES,
  ) {}

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    // The stream id is the SDK's random UUID: an event id names no other session's stream.
    const id = `${streamId}_${this.#next++}`
    const bytes = Buffer.byteLength(JSON.stringify(message))
    this.#events.set(id, { streamId, message, bytes })
    this.#bytes += bytes
    this.#evict()
    return Promise.resolve(id)
  }

  getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return Promise.resolve(this.#events.get(eventId)?.streamId)
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId)
    if (!last) throw new Error('unknown event id')
    let after = false
    for (const [id, event] of [...this.#events]) {
      if (id === lastEventId) after = true
      // A priming event (stored as {}) carries only its id: nothing to send again.
      else if (after && event.streamId === last.streamId && 'jsonrpc' in event.message) await send(id, event.message)
    }
    return last.streamId
  }

  #evict(): void {
    for (const [id, event] of this.#events) {
      if (this.#events.size <= this.maxEvents && this.#bytes <= this.maxBytes) return
      this.#events.delete(id)
      this.#bytes -= event.bytes
    }
  }
}
