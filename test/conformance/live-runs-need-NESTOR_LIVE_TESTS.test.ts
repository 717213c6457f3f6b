import { isLiveProvider, liveTestsEnabled, runToolLoopConformance } from '@nestor/agents/conformance'
import { openai, replay, scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { nativeToolCall, textAnswer } from '../replay/chat-sse.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'

const KEY = 'sk-conformance-live-key-0042'

describe('tool-loop conformance: live providers need NESTOR_LIVE_TESTS=1', () => {
  let wire: WireServer | undefined
  afterEach(async () => {
    await wire?.close()
    wire = undefined
  })

  it('liveTestsEnabled is true only for NESTOR_LIVE_TESTS exactly "1"', () => {
    expect(liveTestsEnabled({ NESTOR_LIVE_TESTS: '1' })).toBe(true)
    for (const value of [undefined, '', '0', 'true', ' 1', 'yes']) {
      expect(liveTestsEnabled({ NESTOR_LIVE_TESTS: value })).toBe(false)
    }
  })

  for (const value of [undefined, '', '0', 'true', ' 1', 'yes']) {
    it(`refuses a live provider when NESTOR_LIVE_TESTS is ${JSON.stringify(value)}, naming the variable, before any request`, async () => {
      wire = await startWireServer()
      const provider = openai({ baseURL: `${wire.url}/v1`, apiKey: KEY, maxRetries: 0 })
      const env = value === undefined ? {} : { NESTOR_LIVE_TESTS: value }
      await expect(runToolLoopConformance({ provider, model: 'gpt-4o-mini' }, { env })).rejects.toThrow(
        /NESTOR_LIVE_TESTS/,
      )
      await expect(runToolLoopConformance({ provider, model: 'gpt-4o-mini' }, { env })).rejects.toMatchObject({
        code: 'invalid_options',
      })
      expect(wire.requests).toHaveLength(0)
    })
  }

  it('runs a live provider over real HTTP when it is exactly "1", and the outcome carries no key', async () => {
    wire = await startWireServer()
    const fixture = '{"fixture_id":"calc-add"}'
    wire.enqueue(
      { body: nativeToolCall('call_1', 'read_fixture', [fixture]) },
      { body: nativeToolCall('call_2', 'run_fixture_test', [fixture]) },
      { body: nativeToolCall('call_3', 'write_fixture_patch', ['{"fixture_id":"calc-add","patch":"return a + b"}']) },
      { body: textAnswer([`Fixed it (key ${KEY}).`]) },
    )
    const provider = openai({ baseURL: `${wire.url}/v1`, apiKey: KEY, maxRetries: 0 })
    const outcome = await runToolLoopConformance(
      { provider, model: 'gpt-4o-mini' },
      { env: { NESTOR_LIVE_TESTS: '1' } },
    )
    expect(outcome.passed).toBe(true)
    expect(wire.requests).toHaveLength(4)
    expect(JSON.stringify(outcome)).not.toContain(KEY)
    expect(outcome.finalAnswer).toContain('[REDACTED]')
  })

  it('defines live as: not scripted, and not a replay that can only read cassettes', () => {
    const live = openai({ apiKey: KEY })
    expect(isLiveProvider(live)).toBe(true)
    expect(isLiveProvider(scripted([]))).toBe(false)
    expect(isLiveProvider(replay({ dir: '/tmp', mode: 'strict' }))).toBe(false)
    expect(isLiveProvider(replay({ provider: scripted([]), dir: '/tmp', mode: 'record' }))).toBe(false)
    expect(isLiveProvider(replay({ provider: live, dir: '/tmp', mode: 'record' }))).toBe(true)
    expect(isLiveProvider(replay({ provider: live, dir: '/tmp', mode: 'auto' }))).toBe(true)
  })
})
