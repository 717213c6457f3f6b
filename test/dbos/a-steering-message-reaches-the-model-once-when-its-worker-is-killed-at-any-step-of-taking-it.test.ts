import { DBOS } from '@dbos-inc/dbos-sdk'
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster, type Worker } from './support/cluster.js'
import { waitForEvent, waitForStep } from './support/wait.js'

// A worker runs with KILL_AT: it SIGKILLs itself at that step of taking a steering message
// (durable()'s onInboxStep seam): the inbox received it, the leg recorded the inbox cursor
// (handed), or the loop journaled it (taken). A worker with the same executor id recovers.

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)
// Each test's workers go with it: a survivor left serving the queue would take the next run.
const workers: Worker[] = []
const worker = async (env: Record<string, string>) => {
  const started = await cluster.worker(env)
  workers.push(started)
  return started
}
afterEach(async () => {
  for (const started of workers.splice(0)) await started.kill()
}, 30_000)

const STEPS = ['received', 'handed', 'taken'] as const
const STEER = 'take the night train'

const inboxHolds = async (workflowId: string) => {
  try {
    await DBOS.readStreamOffset(`${workflowId}.inbox`, 'nestor.inbox', 0, { timeoutSeconds: 0.2 })
    return true
  } catch {
    return false
  }
}
const plannerRequests = (input: string) =>
  cluster.model.requests
    .filter((request) => request.body.includes(input))
    .map((request) => (request.json as { messages: { role: string; content: unknown }[] }).messages)
const steersIn = (messages: { role: string; content: unknown }[]) =>
  messages.filter((m) => m.role === 'user' && m.content === STEER).length

async function expectOnce(workflowId: string, input: string, result: Awaited<ReturnType<typeof finish>>) {
  expect(result.status).toBe('completed')
  expect(result.messages.filter((m) => m.role === 'user' && m.content === STEER)).toHaveLength(1)
  const requests = plannerRequests(input)
  expect(requests.every((messages) => steersIn(messages) <= 1)).toBe(true)
  expect(steersIn(requests.at(-1)!)).toBe(1)
  expect(result.text).toContain(STEER)
  // The child's finished tool is not run again by the recovery.
  expect(cluster.toolRuns().filter((line) => line.startsWith(`lookup ${workflowId} `))).toHaveLength(1)
}

async function finish(workflowId: string) {
  const request = await waitForEvent(cluster.trips, workflowId, 'approval_required')
  if (request.type !== 'approval_required') throw new Error('unreachable')
  await cluster.trips.decide(workflowId, { approve: [request.approvals[0]!.toolCallId] })
  return cluster.trips.handle(workflowId).result()
}

for (const step of STEPS)
  test(`killed when the message was ${step}, sent while the run waits for a decision: the model gets it once`, async () => {
    const workflowId = `paused-${step}`
    const executor = `steer-paused-${step}`
    const victim = await worker({ EXECUTOR_ID: executor, APPROVE_BOOK: '1', KILL_AT: step })
    const input = `Plan Lisbon (${step})`
    await cluster.trips.start(input, { workflowId })
    const request = await waitForEvent(cluster.trips, workflowId, 'approval_required')
    if (request.type !== 'approval_required') throw new Error('unreachable')
    await waitForStep(workflowId, 'nestor.exec')
    await cluster.trips.steer(workflowId, STEER)
    if (step === 'received') {
      // The inbox's process died holding the message: its recovery writes it to the inbox.
      await victim.exited
      await worker({ EXECUTOR_ID: executor, APPROVE_BOOK: '1' })
    }
    while (!(await inboxHolds(workflowId))) await new Promise((resolve) => setTimeout(resolve, 50))
    // The resume's leg takes the message before its first model call (and dies there).
    await cluster.trips.decide(workflowId, { approve: [request.approvals[0]!.toolCallId] })
    if (step !== 'received') {
      expect(await victim.exited).toBeNull()
      await worker({ EXECUTOR_ID: executor, APPROVE_BOOK: '1' })
    }
    const result = await cluster.trips.handle(workflowId).result()
    await expectOnce(workflowId, input, result)
  }, 90_000)

for (const step of STEPS)
  test(`killed when the message was ${step}, sent while a model call streams: the model gets it once`, async () => {
    const workflowId = `live-${step}`
    const executor = `steer-live-${step}`
    const input = `slow: plan Lisbon (${step})`
    const victim = await worker({ EXECUTOR_ID: executor, APPROVE_BOOK: '1', KILL_AT: step })
    await cluster.trips.start(input, { workflowId })
    while (plannerRequests(input).length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    await cluster.trips.steer(workflowId, STEER)
    expect(await victim.exited).toBeNull()
    await worker({ EXECUTOR_ID: executor, APPROVE_BOOK: '1' })
    await expectOnce(workflowId, input, await finish(workflowId))
  }, 90_000)
