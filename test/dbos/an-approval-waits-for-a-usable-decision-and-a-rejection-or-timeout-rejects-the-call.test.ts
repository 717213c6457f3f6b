import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
  await cluster.worker({ EXECUTOR_ID: 'rejecter-1', APPROVE_BOOK: '1', BLOCK_CITY: 'Paris' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

const booked = (workflowId: string) => cluster.toolRuns().filter((line) => line === `book ${workflowId} Lisbon`)

test('a rejection sent by workflow id answers the waiting call as rejected and the tool never runs', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-reject' })
  const request = await waitForEvent(cluster.trips, 'trip-reject', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await cluster.trips.decide('trip-reject', {
    reject: [{ toolCallId: request.approvals[0]!.toolCallId, reason: 'too expensive' }],
  })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toContain('too expensive')
  expect(booked('trip-reject')).toEqual([])
}, 60_000)

test("an edit sent by decide() meets the app's beforeToolCall policy on the edited arguments", async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-edit-blocked' })
  const request = await waitForEvent(cluster.trips, 'trip-edit-blocked', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await cluster.trips.decide('trip-edit-blocked', {
    edit: [{ toolCallId: request.approvals[0]!.toolCallId, args: { city: 'Paris' } }],
  })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toContain('blocked: no bookings in Paris')
  expect(cluster.toolRuns().filter((line) => line.startsWith('book trip-edit-blocked'))).toEqual([])
}, 60_000)

test('no decision within approvalTimeoutMs rejects the waiting call', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-timeout', approvalTimeoutMs: 1000 })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toContain('no decision before the approval timeout')
  expect(booked('trip-timeout')).toEqual([])
}, 60_000)

test('a decision naming a call that is not waiting is dropped and the run waits for a usable one', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-typo' })
  const request = await waitForEvent(cluster.trips, 'trip-typo', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await cluster.trips.decide('trip-typo', { approve: ['call_no_such_call'] })
  await cluster.trips.decide('trip-typo', { approve: [request.approvals[0]!.toolCallId] })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(booked('trip-typo')).toEqual(['book trip-typo Lisbon'])
}, 60_000)

test('a malformed decision is refused by decide(), and one sent past it is dropped while the run waits on', async () => {
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-malformed' })
  const request = await waitForEvent(cluster.trips, 'trip-malformed', 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  const id = request.approvals[0]!.toolCallId
  for (const bad of [{ reject: [null] }, { approve: [id], reject: [{ toolCallId: id }] }, { approve: 'all' }, {}])
    await expect(cluster.trips.decide('trip-malformed', bad as never)).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(/^invalid decision for trip-malformed: /),
    })
  // Straight to the workflow, as an old client or another language would send it.
  await DBOS.send('trip-malformed', { reject: [null] }, 'nestor.decision')
  await DBOS.send('trip-malformed', { approve: [id], reject: [{ toolCallId: id }] }, 'nestor.decision')
  await cluster.trips.decide('trip-malformed', { approve: [id] })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(booked('trip-malformed')).toEqual(['book trip-malformed Lisbon'])
}, 60_000)
