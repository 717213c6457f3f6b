import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockServer, type MockServer } from '../../bench/mock-server.js'
import { replayBench } from '../../bench/replay.js'

// The replay bench on a tiny exec against the real mock over HTTP: it must record a verified run
// and replay it without a model call (its timings are the bench's business, not this test's).
let server: MockServer
beforeAll(async () => {
  server = await startMockServer()
})
afterAll(() => server.close())

describe('the replay bench', () => {
  it('records a 3-turn exec over HTTP and replays it without asking the model anything', async () => {
    const report = await replayBench(server.baseURL, 3, 1)
    expect(report.liveCalls).toBe(4)
    expect(report.replayCalls).toBe(0)
    expect(report.ratio).toBeGreaterThan(0)
  })
})
