import pg from 'pg'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { postgresJournal } from '@nestor/dbos'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { endPool, startPostgres, type TestPostgres } from './support/postgres.js'

let postgres: TestPostgres
let pool: pg.Pool
beforeAll(async () => {
  postgres = await startPostgres()
  // The test database does not exist until DBOS creates it: use the server's default one.
  pool = new pg.Pool({ connectionString: postgres.url.replace(/\/[^/]+$/, '/postgres') })
  // pg emits an idle client's lost connection on the pool and crashes without a listener; the
  // queries below still fail on their own if the server is gone.
  pool.on('error', () => {})
}, 60_000)
afterAll(async () => {
  if (pool) await endPool(pool)
  await postgres?.stop()
}, 30_000)

test('entries load back in append order per run, and a key appended again is stored once', async () => {
  const journal = postgresJournal(pool)
  await journal.append('run-a', { key: 'root/1', kind: 'model', message: { text: 'first' } })
  await journal.append('run-b', { key: 'root/1', kind: 'model', message: { text: 'other run' } })
  await journal.append('run-a', { key: 'root/1/call_1', kind: 'tool', result: [1, 2] })
  // A recovered process records the same step again: the first record stands.
  await journal.append('run-a', { key: 'root/1', kind: 'model', message: { text: 'again' } })
  expect(await postgresJournal(pool).load('run-a')).toEqual([
    { key: 'root/1', kind: 'model', message: { text: 'first' } },
    { key: 'root/1/call_1', kind: 'tool', result: [1, 2] },
  ])
  expect(await journal.load('run-c')).toEqual([])
})

test('loadRuns gives several runs their entries in append order in one read, and a run with none an empty list', async () => {
  const journal = postgresJournal(pool, { table: 'several_runs_journal' })
  await journal.append('leg-a', { key: 'root/1', kind: 'model', message: { text: 'a1' } })
  await journal.append('leg-a#inbox', { key: 'sent:1', kind: 'message' })
  await journal.append('leg-a', { key: 'root/1/call_1', kind: 'tool', result: 'a2' })
  await journal.append('leg-b', { key: 'root/1', kind: 'model', message: { text: 'not asked for' } })
  const runs = await journal.loadRuns(['leg-a', 'leg-a#inbox', 'leg-none'])
  expect([...runs.keys()]).toEqual(['leg-a', 'leg-a#inbox', 'leg-none'])
  expect(runs.get('leg-a')).toEqual(await journal.load('leg-a'))
  expect(runs.get('leg-a')?.map((entry) => entry.key)).toEqual(['root/1', 'root/1/call_1'])
  expect(runs.get('leg-a#inbox')).toEqual([{ key: 'sent:1', kind: 'message' }])
  expect(runs.get('leg-none')).toEqual([])
})

test('processes that create the journal table at the same moment all get it', async () => {
  // CREATE TABLE IF NOT EXISTS is not safe against a concurrent one: the loser can fail on
  // Postgres's catalog. Workers launched together on a new database do exactly this.
  const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: pool.options.connectionString }))
  try {
    for (let round = 0; round < 5; round++) {
      const table = `race_journal_${round}`
      const made = await Promise.allSettled(pools.map((each) => postgresJournal(each, { table }).ensureTable()))
      expect(made.filter((outcome) => outcome.status === 'rejected')).toEqual([])
    }
  } finally {
    await Promise.all(pools.map(endPool))
  }
})

test('a row changed in the table fails the replay invalid_state naming its key, with or without a stateSecret', async () => {
  // The exec reads the Postgres journal through the same entry check (and, with a secret, the
  // same signatures) as any other journal: a bad row is refused, never thrown deep in the loop.
  let looked = 0
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look a word up',
    parameters: z.object({ word: z.string() }),
    execute: ({ word }) => (looked++, `${word}: found`),
  })
  const cases = [
    { table: 'corrupt_journal', secret: undefined, path: '{message,content}', value: '{"type":"text","text":"hi"}' },
    {
      table: 'forged_journal',
      secret: 'pg-journal-secret-0123',
      path: '{message,content,0,arguments,word}',
      value: '"drop"',
    },
  ]
  for (const { table, secret, path, value } of cases) {
    const runtime = () =>
      new Runtime({
        provider: scripted([calls({ name: 'lookup', id: 'l1', args: { word: 'nestor' } }), 'found it']),
        model: 'm',
        ...(secret !== undefined && { stateSecret: secret }),
      })
    const journal = postgresJournal(pool, { table })
    const run = { tools: [lookup], journal, runId: 'pg-run' }
    expect((await runtime().exec('look up nestor', run)).status).toBe('completed')
    await pool.query(`UPDATE ${table} SET entry = jsonb_set(entry, $1, $2::jsonb) WHERE key = 'root#1:model'`, [
      path,
      value,
    ])
    looked = 0
    const result = await runtime().exec('look up nestor', run)
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('invalid_state')
    expect(result.error?.message).toContain('root#1:model')
    expect(looked).toBe(0)
  }
}, 30_000)
