import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Provider } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scratchDir } from './scratch-dir.js'

/** A cassette folder, removed when the test finishes. */
export const tempDir = async (): Promise<string> => scratchDir('nestor-cassettes-')

/**
 * Every event of one model call as JSON, snapshotted when it arrives: providers keep growing the
 * message a `start` event points at, so a later snapshot would show the finished message there.
 */
export async function drain(provider: Provider, request: ModelRequest): Promise<unknown[]> {
  const events: unknown[] = []
  for await (const event of provider.stream(request)) events.push(JSON.parse(JSON.stringify(event)) as unknown)
  return events
}

export const weatherRequest = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: 'gpt-4o-mini',
  system: 'You answer weather questions.',
  messages: [{ role: 'user', content: 'Weather in Paris?' }],
  tools: [
    {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
  toolChoice: 'auto',
  maxRetries: 0,
  ...overrides,
})

/** The text of every file in a folder (the cassettes). */
export async function filesIn(dir: string): Promise<{ name: string; text: string }[]> {
  const names = await readdir(dir)
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(join(dir, name), 'utf8') })))
}
