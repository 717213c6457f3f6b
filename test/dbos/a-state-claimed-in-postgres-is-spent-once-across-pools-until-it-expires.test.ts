import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { Runtime, type RunState } from '@nestor/core'
import { postgresClaims } from '@nestor/dbos'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { transferTool } from '../support/transfer-tool.js'
import { endPool, startPostgres, type TestPostgres } from './support/postgres.js'

let postgres: TestPostgres
const pools: pg.Pool[] = []
/** A pool of its own, as another worker process would have. */
const newPool = () => {
  const pool = new pg.Pool({ connectionString: postgres.url.replace(/\/[^/]+$/, '/postgres'), max: 2 })
  pool.on('error', () => {})
  pools.push(pool)
  return pool
}
beforeAll(async () => {
  postgres = await startPostgres()
}, 60_000)
afterAll(async () => {
  await Promise.all(pools.map(endPool))
  await postgres?.stop()
}, 30_000)

const ran: string[] = []
const transfer = transferTool(ran)

async function pausedState(stateMaxAgeMs?: number): Promise<RunState> {
  const runtime = new Runtime({
    provider: scripted([calls({ name: 'transfer', args: { amount: 500 }, id: 't1' })]),
    model: 'm',
    ...(stateMaxAgeMs === undefined ? {} : { stateMaxAgeMs }),
  })
  const result = await runtime.exec('pay', { tools: [transfer] })
  return result.pending!.state
}

test('two workers on their own pools resume one state: the first runs the call, the second fails invalid_state', async () => {
  ran.length = 0
  const state = await pausedState()
  const workers = [newPool(), newPool()].map(
    (pool) => new Runtime({ provider: scripted(['paid']), model: 'm', claimState: postgresClaims(pool) }),
  )
  const [first, second] = workers.map((runtime) =>
    runtime.resume(JSON.parse(JSON.stringify(state)) as RunState, { approve: ['t1'] }, { tools: [transfer] }),
  )
  const results = [await first!, await second!]
  expect(results.map((r) => r.status).sort()).toEqual(['completed', 'failed'])
  expect(results.find((r) => r.status === 'failed')?.error?.code).toBe('invalid_state')
  expect(ran).toEqual(['transfer 500'])
})

test('twenty claims of one id at the same moment, over six pools, give exactly one true', async () => {
  const claimers = Array.from({ length: 6 }, () => postgresClaims(newPool()))
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => claimers[i % 6]!('state-race', { expiresAt: Date.now() + 60_000 })),
  )
  expect(answers.filter(Boolean)).toHaveLength(1)
})

test('a claim is kept until its state expires and is deleted by a later claim after that', async () => {
  const pool = newPool()
  const claim = postgresClaims(pool, { table: 'expiring_claims' })
  expect(await claim('short', { expiresAt: Date.now() + 1500 })).toBe(true)
  expect(await claim('forever', { expiresAt: Infinity })).toBe(true)
  expect(await claim('short', { expiresAt: Date.now() + 1500 })).toBe(false)
  await new Promise((resolve) => setTimeout(resolve, 1600))
  expect(await claim('other', { expiresAt: Date.now() + 60_000 })).toBe(true)
  const { rows } = await pool.query<{ state_id: string }>('SELECT state_id FROM expiring_claims ORDER BY state_id')
  expect(rows.map((row) => row.state_id)).toEqual(['forever', 'other'])
})

test('a table name that is not a plain identifier is refused before any query', () => {
  expect(() => postgresClaims(newPool(), { table: 'claims; DROP TABLE x' })).toThrow(/invalid table name/)
})
