import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
  await cluster.worker({ EXECUTOR_ID: 'cancel-1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

const statusOf = async (id: string) => (await DBOS.getWorkflowStatus(id))?.status

test('cancel() while the model streams aborts that call, runs no tool after it, ends the inbox, and result() rejects aborted', async () => {
  const handle = await cluster.trips.start('slow: cancel me', { workflowId: 'cancel-1' })
  await waitForEvent(cluster.trips, 'cancel-1', 'message_delta')
  await cluster.trips.cancel('cancel-1')
  await expect(handle.result()).rejects.toMatchObject({ code: 'aborted', message: 'run cancel-1 was cancelled' })
  expect(await statusOf('cancel-1')).toBe('CANCELLED')
  // The inbox relayed the cancel to the leg and ended.
  await DBOS.retrieveWorkflow('cancel-1.inbox').getResult({ pollingIntervalMs: 100 })
  expect(await statusOf('cancel-1.inbox')).toBe('SUCCESS')
  // The aborted model call was the only one: its tool call never came, so no tool ran.
  const requests = cluster.model.requests.filter((r) => r.body.includes('slow: cancel me'))
  expect(requests).toHaveLength(1)
  expect(cluster.toolRuns()).toEqual([])
  // Readers are not left waiting: the stream ends (a cancelled workflow writes no more events).
  const types: string[] = []
  for await (const event of cluster.trips.events('cancel-1')) types.push(event.type)
  expect(types).toContain('message_delta')
  expect(types).not.toContain('tool_start')
}, 60_000)
