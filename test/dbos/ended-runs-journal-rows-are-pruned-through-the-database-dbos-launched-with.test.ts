import { DBOS } from '@dbos-inc/dbos-sdk'
import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startCluster, type Cluster } from './support/cluster.js'
import { endPool } from './support/postgres.js'

// This process names its database only in DBOS.setConfig (support/cluster.ts): durable() must find it there.
delete process.env['DBOS_SYSTEM_DATABASE_URL']

let cluster: Cluster
let pool: pg.Pool
beforeAll(async () => {
  cluster = await startCluster('quick')
  await cluster.worker({ EXECUTOR_ID: 'prune-1' })
  pool = new pg.Pool({ connectionString: cluster.postgres.url, max: 2 })
  pool.on('error', () => {})
}, 60_000)
afterAll(async () => {
  await endPool(pool)
  await cluster?.trips.close()
  await cluster?.stop()
}, 30_000)

const rowsOf = async (runId: string) =>
  Number((await pool.query('SELECT count(*) AS n FROM nestor_journal WHERE run_id = $1', [runId])).rows[0].n)

test('prune() deletes the journal rows of runs that ended before the cut-off, and no others', async () => {
  const ended = await cluster.trips.start('city-old', { workflowId: 'prune-old' })
  await ended.result()
  expect(await rowsOf('prune-old')).toBeGreaterThan(0)
  const cut = Date.now() + 1
  // Still waiting for its slow model answer when the prune runs: its rows stay.
  const running = await cluster.trips.start('slow: city-new', { workflowId: 'prune-running' })
  while ((await rowsOf('prune-running')) === 0 && (await DBOS.getWorkflowStatus('prune-running'))?.status !== 'SUCCESS')
    await new Promise((resolve) => setTimeout(resolve, 50))

  expect(await cluster.trips.prune({ endedBefore: cut })).toBe(1)
  expect(await rowsOf('prune-old')).toBe(0)
  expect(await rowsOf('prune-running')).toBeGreaterThan(0)
  expect((await running.result()).status).toBe('completed')
  expect(await cluster.trips.prune({ endedBefore: 0 })).toBe(0)
}, 60_000)

test('workflow ids that could collide with another run’s inbox or journal are refused with invalid_options', async () => {
  for (const id of ['trip-1.inbox', 'trip#inbox', '', ' trip', 'x'.repeat(201)]) {
    await expect(cluster.trips.start('go', { workflowId: id })).rejects.toMatchObject({ code: 'invalid_options' })
    await expect(cluster.trips.steer(id, 'go')).rejects.toMatchObject({ code: 'invalid_options' })
    expect(() => cluster.trips.handle(id)).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  }
  expect(cluster.trips.handle('trip-1.v2:eu@acme').workflowId).toBe('trip-1.v2:eu@acme')
})
