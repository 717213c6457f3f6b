import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'

let cluster: Cluster
beforeAll(async () => {
  // This test process starts the execs with a durable() that sets no concurrency.
  cluster = await startCluster('quick')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('a worker launched with concurrency 2 runs at most 2 execs at once, whatever the starting process set', async () => {
  await cluster.worker({ EXECUTOR_ID: 'worker-limited', CONCURRENCY: '2' })
  const ids = Array.from({ length: 6 }, (_, index) => `limit-${index}`)
  // 'slow' inputs take about two seconds for their first answer: long enough to see who runs.
  const handles = await Promise.all(ids.map((id) => cluster.trips.start(`slow ${id}`, { workflowId: id })))
  let settled = false
  const results = Promise.all(handles.map((handle) => handle.result())).finally(() => (settled = true))
  let most = 0
  while (!settled) {
    const running = await DBOS.listWorkflows({ queueName: 'nestor-quick', status: 'PENDING' })
    most = Math.max(most, running.length)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect((await results).map((result) => result.text)).toEqual(ids.map((id) => `ok slow ${id}`))
  expect(most).toBe(2)
}, 120_000)
