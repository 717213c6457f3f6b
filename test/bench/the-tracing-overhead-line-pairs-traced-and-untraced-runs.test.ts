import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockServer, type MockServer } from '../../bench/mock-server.js'
import { runTracingOverhead } from '../../bench/dist/tracing-overhead.js'

// The tracing line's pipeline, on a few quads: the child (compiled, as `pnpm bench` runs it) times
// both runtimes against the mock server, each traced run verified to have started its spans.

let server: MockServer
beforeAll(async () => {
  server = await startMockServer()
})
afterAll(async () => {
  await server.close()
})

describe('the tracing overhead measurement', () => {
  it('runs traced and untraced tool-heavy runs in quads and summarizes their CPU', async () => {
    const before = server.stats.requests
    const result = await runTracingOverhead(server.baseURL, { quads: 2, warmup: 1 })
    if (typeof result === 'string') throw new Error(result)
    expect(result.quads).toBe(2)
    expect(result.offMs).toBeGreaterThan(0)
    expect(Number.isFinite(result.ratio)).toBe(true)
    expect(result.low).toBeLessThanOrEqual(result.high)
    // 1 warm-up pair + 2 quads of 4 runs = 10 tool-heavy runs of 11 model calls each.
    expect(server.stats.requests - before).toBe(10 * 11)
    expect(server.stats.mismatches).toBe(0)
  })
})
