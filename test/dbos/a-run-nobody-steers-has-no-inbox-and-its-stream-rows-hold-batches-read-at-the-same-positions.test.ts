import { DBOS } from '@dbos-inc/dbos-sdk'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'

let cluster: Cluster
beforeAll(async () => {
  cluster = await startCluster('quick')
  await cluster.worker({ EXECUTOR_ID: 'lean-1' })
}, 60_000)
afterAll(async () => cluster?.stop(), 30_000)

/** The run's stream rows as stored, in order. */
const rowsOf = async (workflowId: string) => {
  const pool = new pg.Pool({ connectionString: cluster.postgres.url, max: 1 })
  try {
    const { rows } = await pool.query<{ value: string }>(
      `SELECT value FROM dbos.streams WHERE workflow_uuid = $1 AND key = 'nestor.events' ORDER BY "offset"`,
      [workflowId],
    )
    return rows.map((row) => JSON.parse(row.value) as unknown)
  } finally {
    await pool.end()
  }
}

test('a run nobody steers, cancels or follows up never gets an inbox workflow', async () => {
  const result = await (await cluster.trips.start('Lisbon', { workflowId: 'lean-no-inbox' })).result()
  expect(result.status).toBe('completed')
  expect(result.text).toBe('ok Lisbon')
  expect(await DBOS.getWorkflowStatus('lean-no-inbox.inbox')).toBeNull()
  // Its leg's step is the workflow's only recorded operation: no close of the stream after it.
  const steps = await DBOS.listWorkflowSteps('lean-no-inbox')
  expect(steps?.map((step) => step.name)).toEqual(['nestor.exec'])
}, 60_000)

test('its stream has fewer rows than events, and a reader after any position gets the rest, in order, once', async () => {
  await (await cluster.trips.start('Porto', { workflowId: 'lean-rows' })).result()
  const all = []
  for await (const event of cluster.trips.events('lean-rows')) all.push(event)
  expect(all.map((event) => event.position)).toEqual(all.map((_, index) => index + 1))
  expect(all.at(-1)).toMatchObject({ type: 'agent_end', depth: 0 })
  // One row per batch, not one per event; each holds events: the run's last event ends readers,
  // so a run that wrote it pays no close marker (a commit) after it.
  const rows = await rowsOf('lean-rows')
  expect(rows.length).toBeLessThan(all.length)
  for (const row of rows) expect(row).toMatchObject({ events: expect.any(Array) })
  for (const after of [1, 2, Math.floor(all.length / 2), all.length - 1, all.length]) {
    const rest = []
    for await (const event of cluster.trips.events('lean-rows', { after })) rest.push(event)
    expect(rest).toEqual(all.slice(after))
  }
}, 60_000)

test("a run's result is stored as plain JSON, and result() gives it back whole", async () => {
  const result = await (await cluster.trips.start('Braga', { workflowId: 'lean-json' })).result()
  const pool = new pg.Pool({ connectionString: cluster.postgres.url, max: 1 })
  try {
    const { rows } = await pool.query<{ output: string }>(
      'SELECT output FROM dbos.workflow_output WHERE workflow_uuid = $1',
      ['lean-json'],
    )
    // Not superjson's { json, meta } envelope: the result itself, readable without DBOS.
    expect(JSON.parse(rows[0]!.output)).toEqual(JSON.parse(JSON.stringify(result)))
    expect(result).toMatchObject({ status: 'completed', text: 'ok Braga' })
  } finally {
    await pool.end()
  }
}, 60_000)

test('queued: false runs the exec in the starting process, without the queue, durably recorded', async () => {
  // This process serves no queue (listenQueues names none): only a direct start can run here.
  const handle = await cluster.trips.start('Faro', { workflowId: 'lean-direct', queued: false })
  const result = await handle.result()
  expect(result.status).toBe('completed')
  expect(result.text).toBe('ok Faro')
  const status = await DBOS.getWorkflowStatus('lean-direct')
  expect(status).toMatchObject({ status: 'SUCCESS', executorId: `test-${process.pid}` })
  expect(status?.queueName).toBeUndefined()
}, 60_000)
