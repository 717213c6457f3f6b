import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster, type Worker } from './support/cluster.js'

let cluster: Cluster
let victim: Worker | undefined
let killed: Promise<void> | undefined
beforeAll(async () => {
  // The fourth request arrives after three answered model calls: the worker dies right then.
  cluster = await startCluster('planner', (count) => {
    if (count === 4 && victim && !killed) killed = victim.kill()
  })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

const bodies = () => cluster.model.requests.map((request) => request.body)
const shape = (messages: { role: string; content: unknown }[]) =>
  messages.map((message) => ({ role: message.role, content: message.content }))

test('a nested exec SIGKILLed after its third model call resumes on restart: no finished call or leaf tool twice, same result', async () => {
  victim = await cluster.worker({ EXECUTOR_ID: 'crash-1' })
  const handle = await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-crash' })
  while (!killed) await new Promise((resolve) => setTimeout(resolve, 20))
  await killed
  const answeredBeforeKill = bodies().slice(0, 3)
  expect(cluster.toolRuns()).toEqual(['lookup trip-crash Lisbon'])

  await cluster.worker({ EXECUTOR_ID: 'crash-1' })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  // After the restart: the interrupted fourth call again and the fifth, none of the answered three.
  const afterRestart = bodies().slice(4)
  expect(afterRestart).toHaveLength(2)
  for (const body of afterRestart) expect(answeredBeforeKill).not.toContain(body)
  expect(cluster.toolRuns()).toEqual(['lookup trip-crash Lisbon', 'book trip-crash Lisbon'])

  // The stream holds each finished step once: the replayed ones were not written again.
  const toolEnds: string[] = []
  for await (const event of cluster.trips.events('trip-crash'))
    if (event.type === 'tool_end') toolEnds.push(event.toolName)
  expect(toolEnds.sort()).toEqual(['book', 'lookup', 'research'])

  const clean = await (await cluster.trips.start('Plan Lisbon', { workflowId: 'trip-clean' })).result()
  expect(result.text).toBe(clean.text)
  expect(shape(result.messages as never)).toEqual(shape(clean.messages as never))
}, 90_000)
