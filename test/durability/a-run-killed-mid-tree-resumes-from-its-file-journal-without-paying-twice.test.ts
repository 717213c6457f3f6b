import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTripMock, type TripMock } from './support/trip-mock.js'
import { startNode } from './support/processes.js'
import { scratchDir } from '../support/scratch-dir.js'

// A real crash: a child node process runs the trip (6 model turns, two levels of nesting) on a
// file journal against a local OpenAI mock and is killed with SIGKILL once three model calls have
// been answered; a second process on the same journal must finish it without paying again.
const trip = fileURLToPath(new URL('./fixtures/trip-process.mjs', import.meta.url))

type Summary = {
  status: string
  text: string
  history: unknown[]
  events: { type: string; depth: number; replayed: boolean; what: string }[]
  deltas: number
}

let mock: TripMock
beforeAll(async () => {
  mock = await startTripMock()
})
afterAll(() => mock.close())

const counts = (path: string) => readFileSync(path, 'utf8').trim().split('\n').sort()

describe('a run killed with SIGKILL in the middle of its exec tree', () => {
  it('resumes on the same file journal: only the remaining model calls, each leaf body once, the same history, replayed steps marked', async () => {
    const dir = scratchDir('nestor-crash-')

    // The reference: the same trip, uninterrupted.
    const reference = (await startNode(trip, [mock.baseURL, join(dir, 'ref.ndjson'), join(dir, 'ref-counts')])
      .done) as Summary
    expect(reference.status).toBe('completed')
    expect(reference.text).toMatch(/^Trip planned: research done: booked \(charged 120\)/)
    const referenceRequests = mock.requests.splice(0)
    expect(referenceRequests).toHaveLength(6)
    expect(counts(join(dir, 'ref-counts'))).toEqual(['charge', 'fetch_rate', 'stamp'])

    // The crash: the fourth request is held; it only arrives once the third answer was taken.
    const journal = join(dir, 'trip.ndjson')
    const sideEffects = join(dir, 'counts')
    mock.holdFrom = 3
    const first = startNode(trip, [mock.baseURL, journal, sideEffects])
    first.done.catch(() => undefined)
    await mock.waitForRequests(4)
    const killed = new Promise((resolve) => first.child.on('close', (_code, signal) => resolve(signal)))
    first.child.kill('SIGKILL')
    expect(await killed).toBe('SIGKILL')
    expect(mock.requests.slice(0, 3).map((r) => [r.exec, r.toolResults])).toEqual([
      ['plan a trip to Lisbon', 0],
      ['research lisbon', 0],
      ['book hotel', 0],
    ])
    expect(counts(sideEffects)).toEqual(['charge'])

    // The recovery: a new process, the same journal.
    mock.holdFrom = Infinity
    const before = mock.requests.length
    const second = (await startNode(trip, [mock.baseURL, journal, sideEffects]).done) as Summary
    const asked = mock.requests.slice(before)
    expect(asked.map((r) => r.body)).toEqual(referenceRequests.slice(3).map((r) => r.body))
    expect(counts(sideEffects)).toEqual(['charge', 'fetch_rate', 'stamp'])
    expect(second.status).toBe('completed')
    expect(second.text).toBe(reference.text)
    expect(second.history).toEqual(reference.history)
    expect(second.events.filter((e) => e.replayed)).toEqual([
      { type: 'message_end', depth: 0, replayed: true, what: 'assistant' },
      { type: 'message_end', depth: 1, replayed: true, what: 'assistant' },
      { type: 'message_end', depth: 2, replayed: true, what: 'assistant' },
      { type: 'tool_end', depth: 2, replayed: true, what: 'charge' },
      { type: 'message_end', depth: 2, replayed: true, what: 'toolResult' },
    ])
    expect(second.deltas).toBeLessThan(reference.deltas)
  })
})
