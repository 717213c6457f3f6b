import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Runtime, fileJournal, type JournalEntry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { fileJournals, studio, type Studio } from '@nestor/studio'
import { startCli } from '../../packages/studio/src/cli.js'
import { approveBooking, tripApp } from './support.js'

type Overview = {
  recorded: { runId: string; source: string; problem?: string }[]
  runs: { execId: string; forkOf?: string }[]
}
type Recorded = { runId: string; entries: JournalEntry[]; problem?: string }

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('recorded runs in the studio', () => {
  const app = tripApp()
  let served: Studio

  beforeAll(async () => {
    // A recorded run: its approval decided by the gate as it waits.
    const run = app.start('trip-1')
    await approveBooking(app, run.execId)
    expect((await run).text).toBe('trip: researched: lisbon is sunny; booked Alfama')
    // A journal damaged in the middle, one cut short by a crash, and a file that is no journal.
    const damaged = fileJournal(join(app.dir, 'damaged.ndjson'))
    await damaged.append('trip-2', { key: 'root#1:model', kind: 'model', message: { role: 'assistant', content: [] } })
    await damaged.append('trip-2', { key: 'root#2:model', kind: 'model', message: { role: 'assistant', content: [] } })
    const text = readFileSync(join(app.dir, 'damaged.ndjson'), 'utf8').split('\n')
    writeFileSync(join(app.dir, 'damaged.ndjson'), [text[0], '{"key": "root#1:mo', text[2], ''].join('\n'))
    writeFileSync(join(app.dir, 'notes.txt'), 'shopping list\n')
    served = await studio(app.runtime, {
      port: 0,
      approvals: app.gate,
      recorded: fileJournals(app.dir),
      forkOptions: () => ({ tools: app.tools }),
    })
  })
  afterAll(async () => {
    await served.close()
    rmSync(app.dir, { recursive: true, force: true })
  })

  it('lists each journal by its run, says why a file is not one, and shows a run step by step', async () => {
    const overview = (await (await fetch(`${served.url}api/overview`)).json()) as Overview
    const byRun = new Map(overview.recorded.map((r) => [r.runId, r]))
    expect(byRun.get('trip-1')?.source).toBe(join(app.dir, 'trip-1.ndjson'))
    expect(byRun.get(join(app.dir, 'notes.txt'))?.problem).toBe(
      'is not a Nestor journal (its first line has no run header)',
    )
    const trip = (await (await fetch(`${served.url}api/recorded/trip-1`)).json()) as Recorded
    expect(trip.problem).toBeUndefined()
    const keys = trip.entries.map((e) => `${e.kind} ${e.key}`)
    expect(keys).toContain('tool root#1:tool:call_research')
    expect(keys).toContain('tool root/call_research:0#1:tool:call_search')
    expect(keys).toContain('decision root/call_research:0#2:decision:call_book')
    expect(keys.at(-1)).toBe('model root#2:model')
  })

  it('says what is wrong with a damaged journal instead of showing nothing', async () => {
    const damaged = (await (await fetch(`${served.url}api/recorded/trip-2`)).json()) as Recorded
    expect(damaged.entries).toEqual([])
    expect(damaged.problem).toContain(join(app.dir, 'damaged.ndjson'))
    expect(damaged.problem).toContain('line 2')
    const missing = await fetch(`${served.url}api/recorded/trip-9`)
    expect(missing.status).toBe(404)
  })

  it('forks a run at a tool step with an edited result: the fork replays, goes on live, and is recorded beside it', async () => {
    const response = await fetch(
      `${served.url}api/recorded/trip-1/fork`,
      json({ at: 'root#1:tool:call_research', edit: { toolResult: 'nothing found' } }),
    )
    expect(response.status).toBe(201)
    const { execId, runId } = (await response.json()) as { execId: string; runId: string }
    expect(runId).toMatch(/^fork-[A-Za-z0-9_-]{16}$/)
    const result = await app.runtime.attach(execId)!.result
    expect(result.text).toBe('trip: nothing found')
    const overview = (await (await fetch(`${served.url}api/overview`)).json()) as Overview
    expect(overview.runs.find((r) => r.execId === execId)?.forkOf).toBe('trip-1')
    const fork = (await (await fetch(`${served.url}api/recorded/${runId}`)).json()) as Recorded
    // The fork's own journal: the steps it replayed, the edited one, and the live answer after it.
    expect(fork.entries.at(-1)?.key).toBe('root#2:model')
    const edited = fork.entries.find((e) => e.key === 'root#1:tool:call_research') as JournalEntry & {
      result: { content: { text: string }[] }
    }
    expect(edited.result.content[0]!.text).toBe('nothing found')
  })

  it("shows a journal's steps redacted as the app's events are: its secrets never reach the page", async () => {
    const secret = 'sk-live-0123456789abcdef'
    const journal = fileJournal(join(app.dir, 'secret.ndjson'))
    await journal.append('trip-secret', {
      key: 'root#1:tool:call_1',
      kind: 'tool',
      result: { role: 'toolResult', content: [{ type: 'text', text: `the key is ${secret}` }] },
    })
    const runtime = new Runtime({ provider: scripted(['ok']), model: 'm', secrets: [secret] })
    const guarded = await studio(runtime, { port: 0, recorded: fileJournals(app.dir) })
    try {
      const text = await (await fetch(`${guarded.url}api/recorded/trip-secret`)).text()
      expect(text).not.toContain(secret)
      expect(text).toContain('the key is [REDACTED]')
    } finally {
      await guarded.close()
    }
  })

  it('refuses a fork it cannot make with a JSON error naming why', async () => {
    const bad = await fetch(
      `${served.url}api/recorded/trip-1/fork`,
      json({ at: 'root#1:tool:call_research', edit: {} }),
    )
    expect(bad.status).toBe(400)
    const wrongKind = await fetch(
      `${served.url}api/recorded/trip-1/fork`,
      json({ at: 'root#1:tool:call_research', edit: { toolResult: 42 } }),
    )
    expect(wrongKind.status).toBe(400)
    expect(((await wrongKind.json()) as { error: { code: string } }).error.code).toBe('invalid_options')
    const unknown = await fetch(
      `${served.url}api/recorded/trip-9/fork`,
      json({ at: 'root#1:model', edit: { message: 'x' } }),
    )
    expect(unknown.status).toBe(404)
  })

  it('nestor-studio opens the same journals and an eval report without a runtime: nothing to fork, reports read', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'nestor-studio-report-'))
    const report = join(reportDir, 'report.json')
    writeFileSync(
      report,
      JSON.stringify({ format: 'nestor-eval-report', name: 'trips', cases: [{ id: 'c1', status: 'completed' }] }),
    )
    const broken = join(reportDir, 'broken.json')
    writeFileSync(broken, '{"format": "nestor-eval-rep')
    const out: string[] = []
    const cli = await startCli(['--port', '0', app.dir, report, broken], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
    })
    if (typeof cli === 'number') throw new Error(out.join(''))
    const running = cli
    try {
      const url = running.studio.url
      expect(out.join('')).toContain(`open ${url}`)
      const overview = (await (await fetch(`${url}api/overview`)).json()) as Overview & { live: boolean; fork: boolean }
      expect({ live: overview.live, fork: overview.fork }).toEqual({ live: false, fork: false })
      expect(overview.recorded.map((r) => r.runId)).toContain('trip-1')
      const fork = await fetch(`${url}api/recorded/trip-1/fork`, json({ at: 'root#1:model', edit: { message: 'x' } }))
      expect(fork.status).toBe(404)
      expect(((await fork.json()) as { error: { code: string } }).error.code).toBe('no_runtime')
      expect(((await (await fetch(`${url}api/reports/0`)).json()) as { report: { name: string } }).report.name).toBe(
        'trips',
      )
      expect(((await (await fetch(`${url}api/reports/1`)).json()) as { problem: string }).problem).toMatch(
        /^cannot be read: /,
      )
    } finally {
      await running.close()
      rmSync(reportDir, { recursive: true, force: true })
    }
    const errors: string[] = []
    expect(await startCli([join(app.dir, 'absent.ndjson')], { stdout: () => {}, stderr: (t) => errors.push(t) })).toBe(
      2,
    )
    expect(errors.join('')).toContain('does not exist')
  })
})
