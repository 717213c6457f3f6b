/** How one pulled stream turns items into text frames. */
export type Framing<T> = {
  /** Sent before the first item (`retry:` for EventSource). */
  first?: string
  item(value: T): string
  /** After the last item; may wait for the run's result. */
  end(): string | Promise<string>
  /** The last frame when reading or framing failed; the stream then closes normally. */
  error(error: unknown): string
  /** A comment frame for quiet periods; `heartbeatMs` 0 turns it off. */
  heartbeat: string
  heartbeatMs: number
  onCancel?(reason: unknown): void
}

/**
 * A byte stream pulled from an async iterator, one frame per item: nothing is read before the
 * reader asks, so a slow client holds back the reading. On every way out (end, a failure while
 * reading or framing, a cancel) the heartbeat timer is cleared and the iterator returned once.
 */
export function framedStream<T>(open: () => AsyncIterator<T>, framing: Framing<T>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let iterator: AsyncIterator<T> | undefined
  let heartbeat: ReturnType<typeof setInterval> | undefined
  let released = false
  const release = (iteratorDone: boolean) => {
    if (released) return
    released = true
    clearInterval(heartbeat)
    if (!iteratorDone) void Promise.resolve(iterator?.return?.()).catch(() => {})
  }
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (framing.first) controller.enqueue(encoder.encode(framing.first))
        iterator = open()
        if (framing.heartbeatMs > 0) {
          heartbeat = setInterval(() => {
            // Only into an empty queue: heartbeats must not pile up behind a slow reader.
            if ((controller.desiredSize ?? 0) > 0) controller.enqueue(encoder.encode(framing.heartbeat))
          }, framing.heartbeatMs)
          heartbeat.unref?.()
        }
      },
      async pull(controller) {
        let iteratorDone = false
        try {
          const step = await (iterator as AsyncIterator<T>).next()
          if (!step.done) {
            controller.enqueue(encoder.encode(framing.item(step.value)))
            return
          }
          iteratorDone = true
          release(true)
          controller.enqueue(encoder.encode(await framing.end()))
        } catch (error) {
          release(iteratorDone)
          controller.enqueue(encoder.encode(framing.error(error)))
        }
        controller.close()
      },
      cancel(reason) {
        release(false)
        framing.onCancel?.(reason)
      },
    },
    { highWaterMark: 1 },
  )
}
