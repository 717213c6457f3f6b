import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent, waitForStep } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test("a run waiting for its child exec's approval is restarted with its worker and resumes on a decision sent from this process", async () => {
  const worker = await cluster.worker({ EXECUTOR_ID: 'approver-1', APPROVE_LOOKUP: '1' })
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-approve' })
  const request = await waitForEvent(cluster.trips, 'trip-approve', 'approval_required')
  await waitForStep('trip-approve', 'nestor.exec')
  const callsBeforeRestart = cluster.model.calls()

  await worker.kill()
  await cluster.worker({ EXECUTOR_ID: 'approver-1', APPROVE_LOOKUP: '1' })
  if (request.type !== 'approval_required') throw new Error('unreachable')
  const toolCallId = request.approvals[0]!.toolCallId
  await cluster.trips.decide('trip-approve', { approve: [toolCallId] })

  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(request.approvals[0]!.path).toHaveLength(2)
  expect(result.text).toContain('booked Lisbon')
  expect(cluster.toolRuns()).toEqual(['lookup trip-approve Lisbon', 'book trip-approve Lisbon'])
  // The recovered workflow took the paused step from Postgres: only the three calls after the
  // decision (the researcher's answer, the planner's booking call, its answer).
  expect(cluster.model.calls()).toBe(callsBeforeRestart + 3)
}, 90_000)
