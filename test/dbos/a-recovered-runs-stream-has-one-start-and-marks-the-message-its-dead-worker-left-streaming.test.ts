import { afterAll, beforeAll, expect, test } from 'vitest'
import { UIChunkMapper } from '@nestor/web'
import type { DurableEvent } from '@nestor/dbos'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('a worker killed while its model call streams: the stream says so once, with one agent_start, and the UI mapper starts the turn anew', async () => {
  const victim = await cluster.worker({ EXECUTOR_ID: 'abandon-1' })
  const handle = await cluster.trips.start('slow: abandon', { workflowId: 'abandon-1' })
  await waitForEvent(cluster.trips, 'abandon-1', 'message_delta')
  await victim.kill()
  await cluster.worker({ EXECUTOR_ID: 'abandon-1' })
  const result = await handle.result()
  expect(result.status).toBe('completed')

  const events: DurableEvent[] = []
  for await (const event of cluster.trips.events('abandon-1')) events.push(event)
  const shape = events
    .filter((e) => e.type !== 'message_delta')
    .map((e) => (e.type === 'message_end' && e.abandoned ? 'message_end abandoned' : e.type))
  expect(shape.filter((type) => type === 'agent_start')).toHaveLength(1)
  expect(shape.filter((type) => type === 'agent_end')).toHaveLength(1)
  // The input, the first turn's start, the half-streamed answer marked abandoned, the answer again.
  expect(shape.slice(0, 8)).toEqual([
    'agent_start',
    'message_start',
    'message_end',
    'turn_start',
    'message_start',
    'message_end abandoned',
    'message_start',
    'message_end',
  ])
  expect(events.map((e) => e.position)).toEqual(events.map((_, index) => index + 1))
  // The tool call the dead worker had half-streamed is not joined with the one streamed again.
  const mapper = new UIChunkMapper('m1')
  const chunks = events.flatMap((event) => mapper.map(event))
  const inputs = chunks
    .filter((c) => c.type === 'tool-input-delta')
    .map((c) => (c as { inputTextDelta: string }).inputTextDelta)
  const abandonedAt = shape.indexOf('message_end abandoned')
  expect(abandonedAt).toBeGreaterThan(0)
  const available = chunks.filter((c) => c.type === 'tool-input-available')
  expect(available).toHaveLength(1)
  expect(inputs.join('')).toContain(JSON.stringify({ city: 'slow: abandon' }))
  expect(chunks.filter((c) => c.type === 'tool-input-start')).toHaveLength(2)
}, 90_000)
