import { describe, expect, it } from 'vitest'
import { startMockServer } from '../../bench/mock-server.js'
import { runTracingOverhead } from '../../bench/dist/tracing-overhead.js'
import { serverPerTest } from '../support/server-per-test.js'

// The tracing line's pipeline, on a few blocks: the child (compiled, as `pnpm bench` runs it) times
// the three runtimes against the mock server, each traced run verified to have started its spans.

const server = serverPerTest(() => startMockServer())

describe('the tracing overhead measurement', () => {
  it('runs untraced, bare-instrumented and SDK-traced tool-heavy runs in blocks and summarizes their CPU', async () => {
    const before = server().stats.requests
    const result = await runTracingOverhead(server().baseURL, { blocks: 2, warmup: 1 })
    if (typeof result === 'string') throw new Error(result)
    expect(result.blocks).toBe(2)
    expect(result.offMs).toBeGreaterThan(0)
    expect(Number.isFinite(result.on.ratio) && Number.isFinite(result.bare.ratio)).toBe(true)
    expect(result.on.low).toBeLessThanOrEqual(result.on.high)
    // 1 warm-up round of the 3 runtimes + 2 blocks of 6 runs = 15 tool-heavy runs of 11 model calls.
    expect(server().stats.requests - before).toBe(15 * 11)
    expect(server().stats.mismatches).toBe(0)
  })
})
