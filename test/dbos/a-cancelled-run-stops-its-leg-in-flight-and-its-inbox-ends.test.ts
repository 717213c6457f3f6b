import { DBOS } from '@dbos-inc/dbos-sdk'
import type { DurableEvent } from '@nestor/dbos'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent, waitForStep } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
  // Lookups wait for approval (the second test); the first is cancelled before its call exists.
  await cluster.worker({ EXECUTOR_ID: 'cancel-1', APPROVE_LOOKUP: '1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

const statusOf = async (id: string) => (await DBOS.getWorkflowStatus(id))?.status
const eventsOf = async (id: string) => {
  const events: DurableEvent[] = []
  for await (const event of cluster.trips.events(id)) events.push(event)
  return events
}

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
  // Readers are not left waiting: the stream ends, and its last event is the run's own end, aborted.
  const events = await eventsOf('cancel-1')
  const types = events.map((event) => event.type)
  expect(types).toContain('message_delta')
  expect(types).not.toContain('tool_start')
  const last = events.at(-1)!
  expect(last).toMatchObject({ type: 'agent_end', depth: 0 })
  if (last.type !== 'agent_end') throw new Error('unreachable')
  expect(last.result).toMatchObject({ status: 'aborted', error: { code: 'aborted' } })
  expect(types.filter((type) => type === 'agent_end')).toHaveLength(1)
}, 60_000)

test('cancel() while the run waits for a decision ends its stream with the run aborted, and result() rejects aborted', async () => {
  const handle = await cluster.trips.start('cancel me while I wait', { workflowId: 'cancel-2' })
  await waitForEvent(cluster.trips, 'cancel-2', 'approval_required')
  await waitForStep('cancel-2', 'nestor.exec')
  await cluster.trips.cancel('cancel-2')
  await expect(handle.result()).rejects.toMatchObject({ code: 'aborted' })
  expect(await statusOf('cancel-2')).toBe('CANCELLED')
  const events = await eventsOf('cancel-2')
  const last = events.at(-1)!
  if (last.type !== 'agent_end') throw new Error(`the stream ended with ${last.type}`)
  expect(last.depth).toBe(0)
  expect(last.result).toMatchObject({
    status: 'aborted',
    error: { code: 'aborted', message: 'run cancel-2 was cancelled' },
  })
  expect(last.result.pending).toBeUndefined()
  expect(cluster.toolRuns()).toEqual([])
}, 60_000)
