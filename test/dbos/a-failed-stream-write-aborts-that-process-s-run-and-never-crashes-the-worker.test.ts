import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('a run whose ownership moves while it streams loses its next stream write: that worker lives on, and the run ends once', async () => {
  const a = await cluster.worker({ EXECUTOR_ID: 'own-a' })
  const b = await cluster.worker({ EXECUTOR_ID: 'own-b' })
  const handle = await cluster.trips.start('slow: own', { workflowId: 'own-1' })
  await waitForEvent(cluster.trips, 'own-1', 'message_delta')
  // Re-enqueued while it runs (what recover() does to a worker wrongly taken for dead): the owner
  // changes, so the running process's next write is refused (DBOSWorkflowConflictError).
  await DBOS.resumeWorkflow('own-1', { queueName: 'nestor-quick' })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toBe('ok slow: own')
  // Both workers still up: the refused write ended that process's leg of the run, not the process.
  await new Promise((resolve) => setTimeout(resolve, 500))
  for (const worker of [a, b]) expect([worker.process.exitCode, worker.process.signalCode]).toEqual([null, null])
  const stderr = [a, b].map((w) => (w as unknown as { stderr: string }).stderr).join('\n')
  expect(stderr).not.toMatch(/unhandled|UnhandledPromiseRejection/i)
}, 40_000)
