import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('starting the same workflow id twice runs the exec once and both handles give its ExecResult', async () => {
  await cluster.worker({ EXECUTOR_ID: 'worker-a' })
  const first = await cluster.trips.start('Porto', { workflowId: 'quick-once' })
  const second = await cluster.trips.start('Porto', { workflowId: 'quick-once' })
  const [a, b] = await Promise.all([first.result(), second.result()])
  expect(a.status).toBe('completed')
  expect(a.text).toBe('ok Porto')
  expect(b).toEqual(a)
  expect(cluster.toolRuns()).toEqual(['lookup quick-once Porto'])
  expect(cluster.model.calls()).toBe(2)
}, 60_000)
