import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type JournalEntry } from '@nestor/core'
import { postgresJournal } from '@nestor/dbos'
import { postgresJournals, studio } from '@nestor/studio'
import { startCli } from '../../packages/studio/src/cli.js'
import { endPool, startPostgres, type TestPostgres } from '../dbos/support/postgres.js'
import { approveBooking, tripApp } from './support.js'

type Recorded = { runId: string; entries: JournalEntry[]; problem?: string }
const getJson = async <T>(url: string) => (await (await fetch(url)).json()) as T

describe('a Postgres journal in the studio', () => {
  let postgres: TestPostgres
  let pool: pg.Pool
  let url: string
  const app = tripApp()

  beforeAll(async () => {
    postgres = await startPostgres()
    url = postgres.url.replace(/\/[^/]+$/, '/postgres')
    pool = new pg.Pool({ connectionString: url })
    pool.on('error', () => {})
    // A run recorded by @nestor/dbos's journal, as a durable app records it.
    const run = app.runtime.exec('Plan Lisbon', { tools: app.tools, runId: 'pg-trip', journal: postgresJournal(pool) })
    await approveBooking(app, run.execId)
    expect((await run).status).toBe('completed')
  }, 60_000)
  afterAll(async () => {
    if (pool) await endPool(pool)
    await postgres?.stop()
  }, 30_000)

  it('nestor-studio lists and reads its runs from a postgres:// URL; a bad table name is refused', async () => {
    const out: string[] = []
    const cli = await startCli(['--port', '0', url], { stdout: (t) => out.push(t), stderr: (t) => out.push(t) })
    if (typeof cli === 'number') throw new Error(out.join(''))
    try {
      const base = cli.studio.url
      const overview = await getJson<{ recorded: { runId: string; source: string }[] }>(`${base}api/overview`)
      expect(overview.recorded).toEqual([{ runId: 'pg-trip', source: 'postgres:nestor_journal' }])
      const trip = await getJson<Recorded>(`${base}api/recorded/pg-trip`)
      expect(trip.entries.map((e) => e.key)).toContain('root/call_research:0#2:decision:call_book')
      expect(trip.entries.at(-1)?.key).toBe('root#2:model')
    } finally {
      await cli.close()
    }
    expect(() => postgresJournals(pool, { table: 'x; DROP TABLE y' })).toThrow(/plain SQL name/)
  })

  it("the app's studio forks a run it reads from Postgres at a model step", async () => {
    const served = await studio(app.runtime, {
      port: 0,
      recorded: postgresJournals(pool),
      forkOptions: () => ({ tools: app.tools }),
    })
    try {
      const response = await fetch(`${served.url}api/recorded/pg-trip/fork`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ at: 'root#2:model', edit: { message: 'Lisbon can wait.' } }),
      })
      expect(response.status).toBe(201)
      const { execId } = (await response.json()) as { execId: string }
      expect((await app.runtime.attach(execId)!.result).text).toBe('Lisbon can wait.')
    } finally {
      await served.close()
    }
  })
})
