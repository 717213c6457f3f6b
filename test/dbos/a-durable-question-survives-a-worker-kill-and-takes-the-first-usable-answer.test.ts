import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { waitForEvent, waitForStep } from './support/wait.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('planner')
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

test("a run waiting for its child's question is restarted with its worker, drops an answer its schema refuses, and resumes on one that fits", async () => {
  const worker = await cluster.worker({ EXECUTOR_ID: 'asker-1', ASK_LOOKUP: '1' })
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-ask' })
  const asked = await waitForEvent(cluster.trips, 'trip-ask', 'input_required')
  await waitForStep('trip-ask', 'nestor.exec')
  if (asked.type !== 'input_required') throw new Error('unreachable')
  const input = asked.inputs[0]!
  expect(input).toMatchObject({ question: 'Which season in Lisbon?', path: [expect.any(String), expect.any(String)] })

  await worker.kill()
  await cluster.worker({ EXECUTOR_ID: 'asker-1', ASK_LOOKUP: '1' })
  // Not a season: the workflow drops it and keeps waiting; a malformed one is refused at once.
  await cluster.trips.decide('trip-ask', { answers: { [input.id]: { season: 'winter' } } })
  await expect(cluster.trips.decide('trip-ask', { answers: [] as never })).rejects.toMatchObject({
    code: 'invalid_options',
  })
  await cluster.trips.decide('trip-ask', { answers: { [input.id]: { season: 'autumn' } } })

  const result = await handle.result()
  expect(result.status).toBe('completed')
  // The lookup body ran again after the answer and logged once, with it; the booking followed.
  expect(cluster.toolRuns()).toEqual(['lookup trip-ask Lisbon in autumn', 'book trip-ask Lisbon'])
}, 90_000)

test('a question nobody answers within approvalTimeoutMs is asked again and gets input_unavailable; the run ends', async () => {
  await cluster.worker({ EXECUTOR_ID: 'asker-2', ASK_LOOKUP: '1' })
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-ask-late', approvalTimeoutMs: 1 })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  const ends = []
  for await (const event of cluster.trips.events('trip-ask-late'))
    if (event.type === 'tool_end' && event.toolName === 'lookup') ends.push(event)
  expect(ends).toEqual([expect.objectContaining({ isError: true })])
  expect(JSON.stringify(ends[0])).toContain('no decision before the approval timeout')
  // The lookup body stopped at its question: it never logged a season.
  expect(cluster.toolRuns().filter((line) => line.startsWith('lookup trip-ask-late'))).toEqual([])
}, 90_000)
