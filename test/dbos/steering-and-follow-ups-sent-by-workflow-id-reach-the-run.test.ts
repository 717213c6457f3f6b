import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent, waitForStep } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
  await cluster.worker({ EXECUTOR_ID: 'steered-1', APPROVE_BOOK: '1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test('a steering message sent from another process while the run waits is in the next model request', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-steer' })
  const request = await waitForEvent(cluster.trips, 'trip-steer', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await waitForStep('trip-steer', 'nestor.exec')
  await cluster.trips.steer('trip-steer', 'make it cheaper')
  await cluster.trips.decide('trip-steer', { approve: [request.approvals[0]!.toolCallId] })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toContain('make it cheaper')
  const last = cluster.model.requests.at(-1)!.json as { messages: { role: string; content: unknown }[] }
  expect(last.messages.filter((m) => m.role === 'user').map((m) => m.content)).toContain('make it cheaper')
  // A message was sent, so the run's last leg closed its inbox (not left for the minute's idle check).
  await DBOS.retrieveWorkflow('trip-steer.inbox').getResult({ pollingIntervalMs: 100 })
  expect((await DBOS.getWorkflowStatus('trip-steer.inbox'))?.status).toBe('SUCCESS')
}, 60_000)

test('a follow-up sent while the run waits is answered after the run would have ended', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-follow' })
  const request = await waitForEvent(cluster.trips, 'trip-follow', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await waitForStep('trip-follow', 'nestor.exec')
  const before = cluster.model.calls()
  await cluster.trips.followUp('trip-follow', 'and a day trip to Sintra')
  await cluster.trips.decide('trip-follow', { approve: [request.approvals[0]!.toolCallId] })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toContain('and a day trip to Sintra')
  // After the booking: the planner's answer, then one more turn for the follow-up.
  expect(cluster.model.calls()).toBe(before + 2)
}, 60_000)

test('a steering message sent while a model call is streaming reaches the next model request', async () => {
  const handle = await cluster.trips.start('slow: plan Lisbon', { workflowId: 'trip-live-steer' })
  // The planner's requests carry its input; the researcher's do not.
  const planner = () => cluster.model.requests.filter((request) => request.body.includes('slow: plan Lisbon'))
  while (planner().length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
  await cluster.trips.steer('trip-live-steer', 'prefer trains')
  const request = await waitForEvent(cluster.trips, 'trip-live-steer', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  // Taken while the run was live: the planner's second request (before the pause) has it.
  expect(planner()[1]!.body).toContain('prefer trains')
  await cluster.trips.decide('trip-live-steer', { approve: [request.approvals[0]!.toolCallId] })
  expect((await handle.result()).text).toContain('prefer trains')
}, 60_000)
