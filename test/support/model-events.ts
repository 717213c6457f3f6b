import type { ModelEvent } from '@nestor/core/integration-kit'

/** Every event of a provider stream, in order. */
export async function collectModelEvents(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}
