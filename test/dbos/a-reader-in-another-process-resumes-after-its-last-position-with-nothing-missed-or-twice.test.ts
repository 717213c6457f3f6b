import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
  await cluster.worker({ EXECUTOR_ID: 'streamer-1', APPROVE_BOOK: '1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

type Line = { position: number; type: string; execId: string; seq: number }

test('a reader process that stops after five events and a second one that resumes after its position see the whole stream once', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-events' })
  // The run waits for approval, so the first reader reads a live run.
  const request = await waitForEvent(cluster.trips, 'trip-events', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  const env = { MODE: 'events', WORKFLOW_ID: 'trip-events' }
  const first = (await cluster.client({ ...env, AFTER: '0', LIMIT: '5' })) as Line[]
  expect(first.map((line) => line.position)).toEqual([1, 2, 3, 4, 5])

  const second = cluster.client({ ...env, AFTER: String(first.at(-1)!.position) })
  await cluster.trips.decide('trip-events', { approve: [request.approvals[0]!.toolCallId] })
  await handle.result()
  const rest = (await second) as Line[]

  const whole: Line[] = []
  for await (const event of cluster.trips.events('trip-events', { after: 0 }))
    whole.push({ position: event.position, type: event.type, execId: event.execId, seq: event.seq })
  expect([...first, ...rest]).toEqual(whole)
  expect(whole.map((line) => line.position)).toEqual(whole.map((_, index) => index + 1))
  // Nested events are in the same stream: the researcher's exec is there, and both agents end.
  expect(new Set(whole.map((line) => line.execId)).size).toBe(2)
  expect(whole.filter((line) => line.type === 'agent_end')).toHaveLength(3)
}, 90_000)
