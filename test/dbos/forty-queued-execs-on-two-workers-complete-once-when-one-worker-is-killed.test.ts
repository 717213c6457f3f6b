import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster, type Worker } from './support/cluster.js'

let cluster: Cluster
let victim: Worker | undefined
let killed: Promise<void> | undefined
beforeAll(async () => {
  // Half-way through the model calls (two per exec), worker B dies without warning.
  cluster = await startCluster('quick', (count) => {
    if (count === 40 && victim) killed = victim.kill()
  })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('40 execs queued for 2 workers all complete with their own answer after one worker is SIGKILLed and restarted', async () => {
  await cluster.worker({ EXECUTOR_ID: 'worker-a', CONCURRENCY: '4' })
  victim = await cluster.worker({ EXECUTOR_ID: 'worker-b', CONCURRENCY: '4' })
  const ids = Array.from({ length: 40 }, (_, index) => `scale-${index}`)
  const handles = await Promise.all(ids.map((id) => cluster.trips.start(`city-${id}`, { workflowId: id })))
  while (!killed) await new Promise((resolve) => setTimeout(resolve, 50))
  await killed
  // The same executor id again: DBOS recovers the workflows the dead process had taken.
  await cluster.worker({ EXECUTOR_ID: 'worker-b', CONCURRENCY: '4' })

  const results = await Promise.all(handles.map((handle) => handle.result()))
  expect(results.map((result) => result.status)).toEqual(ids.map(() => 'completed'))
  expect(results.map((result) => result.text)).toEqual(ids.map((id) => `ok city-${id}`))
  const runs = cluster.toolRuns()
  // Every exec ran its leaf tool; only a call in flight at the kill may have run twice.
  for (const id of ids) expect(runs.filter((line) => line.startsWith(`lookup ${id} `)).length).toBeGreaterThan(0)
  expect(runs.length - ids.length).toBeLessThanOrEqual(4)
}, 120_000)
