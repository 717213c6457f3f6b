import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
}, 60_000)
afterAll(async () => cluster?.stop(), 60_000)

test('Postgres stopped for 5 s while a run streams, then started again: the run completes once, every process stays up', async () => {
  const worker = await cluster.worker({ EXECUTOR_ID: 'outage-1' })
  const handle = await cluster.trips.start('slow: outage', { workflowId: 'outage-1' })
  await waitForEvent(cluster.trips, 'outage-1', 'message_delta')
  await cluster.postgres.outage(5000)
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toBe('ok slow: outage')
  // The leaf tool ran once: nothing was lost and nothing ran twice.
  expect(cluster.toolRuns()).toEqual(['lookup outage-1 slow: outage'])
  expect([worker.process.exitCode, worker.process.signalCode]).toEqual([null, null])
  const types: string[] = []
  for await (const event of cluster.trips.events('outage-1')) types.push(event.type)
  expect(types.filter((type) => type === 'agent_end')).toHaveLength(1)
  expect(types.filter((type) => type === 'tool_end')).toHaveLength(1)
}, 120_000)
