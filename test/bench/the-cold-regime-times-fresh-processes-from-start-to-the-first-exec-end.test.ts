import { describe, expect, it } from 'vitest'
import { startMockServer } from '../../bench/mock-server.js'
import { renderCold, runCold } from '../../bench/dist/cold.js'
import { serverPerTest } from '../support/server-per-test.js'

// The cold regime's pipeline, one round: each system in a fresh process (compiled, as `pnpm bench`
// runs it) imports, sets up and runs one verified tool-heavy exec against the mock server; the MCP
// row gets its tools from the reference server over stdio. No timing is asserted, only the order
// of the milestones and that every exec did the whole conversation.

const server = serverPerTest(() => startMockServer())

describe('the cold regime', () => {
  it('runs the floor, Nestor with zod and with JSON Schema tools, and Nestor over MCP, one fresh process each', async () => {
    const before = server().stats.requests
    const systems = ['floor', 'nestor', 'nestor-json', 'nestor-mcp'] as const
    const results = await runCold(server().baseURL, { rounds: 1, systems })
    expect(results.map((r) => [r.system, r.failed])).toEqual(systems.map((s) => [s, undefined]))
    for (const { samples } of results) {
      const s = samples[0]
      if (!s) throw new Error('no sample')
      expect(s.boot).toBeLessThanOrEqual(s.imported)
      expect(s.imported).toBeLessThanOrEqual(s.ready)
      expect(s.ready).toBeLessThan(s.end)
      expect(s.cpuReady).toBeLessThanOrEqual(s.cpuEnd)
    }
    // 10 tool turns + the answer, per system; a dropped or garbled tool result would be a mismatch.
    expect(server().stats.requests - before).toBe(systems.length * 11)
    expect(server().stats.mismatches).toBe(0)
    const table = renderCold(results, 1)
    for (const s of systems) expect(table).toContain(`| ${s} |`)
  })

  it('reports a system that cannot run as unavailable instead of failing the others', async () => {
    const results = await runCold(server().baseURL, {
      rounds: 1,
      systems: ['floor', 'no-such-system' as never],
    })
    expect(results[0]!.failed).toBeUndefined()
    expect(results[1]!.failed).toBeTruthy()
    expect(renderCold(results, 1)).toMatch(/\| no-such-system \| unavailable/)
  })
})
