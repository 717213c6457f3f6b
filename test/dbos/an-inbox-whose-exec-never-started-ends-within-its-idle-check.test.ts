import { DBOS, DBOSClient } from '@dbos-inc/dbos-sdk'
import { Runtime } from '@nestor/core'
import { durable } from '@nestor/dbos'
import { openai } from '@nestor/providers'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'

let cluster: Cluster
let client: DBOSClient
beforeAll(async () => {
  cluster = await startCluster('quick')
  // The default bound is a minute; the test sets it small instead of waiting that long.
  await cluster.worker({ EXECUTOR_ID: 'orphan-1', INBOX_IDLE_CHECK_MS: '300' })
  client = await DBOSClient.create({ systemDatabaseUrl: cluster.postgres.url })
}, 60_000)
afterAll(async () => {
  await client?.destroy()
  await cluster?.stop()
}, 30_000)

test('an inbox whose exec never started (start() failed between the two) ends on its own', async () => {
  // What start() leaves when its process dies right after enqueuing the inbox: no exec workflow.
  await client.enqueue({
    workflowName: 'nestor.quick.inbox',
    queueName: 'nestor-quick-inbox',
    workflowID: 'orphan-1.inbox',
    appVersion: 'test',
  })
  await DBOS.retrieveWorkflow('orphan-1.inbox').getResult({ pollingIntervalMs: 100 })
  expect((await DBOS.getWorkflowStatus('orphan-1.inbox'))?.status).toBe('SUCCESS')
  expect(await DBOS.getWorkflowStatus('orphan-1')).toBeNull()
}, 30_000)

test('a run goes on through its inbox idle checks: its steering still arrives and its inbox ends with it', async () => {
  const handle = await cluster.trips.start('slow: steer me', { workflowId: 'orphan-2' })
  while (cluster.model.requests.filter((r) => r.body.includes('slow: steer me')).length === 0)
    await new Promise((resolve) => setTimeout(resolve, 20))
  await cluster.trips.steer('orphan-2', 'and the trams')
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.messages.filter((m) => m.role === 'user').map((m) => m.content)).toContain('and the trams')
  await DBOS.retrieveWorkflow('orphan-2.inbox').getResult({ pollingIntervalMs: 100 })
  expect((await DBOS.getWorkflowStatus('orphan-2.inbox'))?.status).toBe('SUCCESS')
}, 60_000)

test('inboxIdleCheckMs that is not a positive number is invalid_options naming it', () => {
  const runtime = new Runtime({ provider: openai({ apiKey: 'sk-test-dbos' }), model: 'mock-model' })
  for (const inboxIdleCheckMs of [0, -1, Number.NaN, Infinity])
    expect(() => durable(runtime, { name: 'bad-idle', inboxIdleCheckMs })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('inboxIdleCheckMs') }),
    )
})
