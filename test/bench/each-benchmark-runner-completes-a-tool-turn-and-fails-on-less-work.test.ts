import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMockServer, type MockServer } from '../../bench/mock-server.js'
import { loadRunner, SYSTEMS } from '../../bench/runners/index.js'
import type { Runner, Workload } from '../../bench/runners/types.js'
import { API_KEY, MODEL, echoArguments, expectedText, priorHistory, promptFor, verify } from '../../bench/scenario.js'

// Each benchmark runner, on a tiny workload against the real mock server over HTTP: it must do
// the whole conversation and pass its own verification. A peer that cannot load is skipped.

const tiny: Workload = { name: 'tiny', scenario: { kind: 'tools', t: 1, c: 3 }, history: [] }
const tinyHistory: Workload = {
  name: 'tiny-history',
  scenario: { kind: 'tools', t: 1, c: 3 },
  history: priorHistory(8),
}
const tinyNested: Workload = { name: 'tiny-nested', scenario: { kind: 'nested', depth: 0, max: 2, c: 3 }, history: [] }

let server: MockServer
beforeAll(async () => {
  server = await startMockServer()
})
afterAll(async () => {
  await server.close()
})

describe('benchmark runners', () => {
  for (const system of SYSTEMS) {
    it(`${system} runs one tool turn and streams the final text intact`, async (ctx) => {
      let runner: Runner
      try {
        runner = await loadRunner(system, { baseURL: server.baseURL, apiKey: API_KEY, model: MODEL })
      } catch (error) {
        if (system === 'floor' || system === 'nestor') throw error
        ctx.skip(`${system} cannot load here: ${(error as Error).message}`)
        return
      }
      const before = server.stats.requests
      const workloads = [tiny, tinyHistory, tinyNested].filter((w) => runner.supports(w))
      for (const w of workloads) {
        const outcome = await runner.run(w)
        expect(outcome.text).toBe(expectedText(3))
        expect(outcome.toolCalls).toBe(w.scenario.kind === 'tools' ? 1 : 2)
      }
      // tools: 2 requests each; nested (max 2): 2 per level with a call + 1 for the leaf.
      const expected = workloads.reduce((n, w) => n + (w.scenario.kind === 'tools' ? 2 : 5), 0)
      expect(server.stats.requests - before).toBe(expected)
      expect(server.stats.mismatches).toBe(0)
    })
  }

  it('a run that did less work fails verification loudly', () => {
    expect(() => verify('x', tiny.scenario, { toolCalls: 0, text: expectedText(3) })).toThrow(
      /expected 1 tool calls, 0 ran/,
    )
    expect(() => verify('x', tiny.scenario, { toolCalls: 1, text: 'tok0 ' })).toThrow(/final text differs/)
  })

  it('the server answers a wrong tool result with a MISMATCH text, so verification cannot pass', async () => {
    const response = await fetch(`${server.baseURL}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: MODEL,
        stream: true,
        messages: [
          { role: 'user', content: promptFor(tiny.scenario) },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'echo', arguments: echoArguments(0) } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'not the echo' },
        ],
      }),
    })
    expect(await response.text()).toContain('MISMATCH')
  })
})

describe('mock server, Anthropic Messages dialect', () => {
  it('streams a tool_use turn, then the text turn, to the Anthropic SDK (via pi-ai)', async (ctx) => {
    let check: typeof import('../../bench/anthropic-check.js')
    try {
      check = await import('../../bench/anthropic-check.js')
    } catch (error) {
      ctx.skip(`pi-ai cannot load here: ${(error as Error).message}`)
      return
    }
    const result = await check.anthropicRoundTrip(server.url, 3)
    expect(result.firstStop).toBe('toolUse')
    expect(result.args).toEqual(result.expectedArgs)
    expect(result.secondStop).toBe('stop')
    expect(result.text).toBe(expectedText(3))
  })
})
