import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ v: z.string() }),
  execute: ({ v }) => {
    if (v.startsWith('bad')) throw new Error(`bad ${v}`)
    return v
  },
})
const echoCall = (v: string) => calls({ name: 'echo', args: { v } })

describe('breaker rules', () => {
  it('a success of another call resets every streak', async () => {
    const provider = scripted([echoCall('bad'), echoCall('ok'), echoCall('bad'), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [echo] })
    expect(result.status).toBe('completed')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a call blocked by beforeToolCall counts as a failure of its signature', async () => {
    const provider = scripted([echoCall('x'), echoCall('x'), 'never'])
    const result = await new Runtime({
      provider,
      model: 'm',
      hooks: { beforeToolCall: () => ({ block: true, reason: 'denied' }) },
    }).exec('go', { tools: [echo] })
    expect(result.error?.code).toBe('circuit_breaker')
    expect(result.error?.message).toBe('tool echo failed 2 consecutive times with identical arguments')
    expect(provider.requests).toHaveLength(2)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a repeat of a successful call (duplicate_call) counts toward the breaker', async () => {
    const provider = scripted([echoCall('x'), echoCall('x'), echoCall('x'), 'never'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [echo] })
    expect(result.error?.code).toBe('circuit_breaker')
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'duplicate_call', 'duplicate_call'])
  })

  it('breakerThreshold Infinity turns the breaker off', async () => {
    const provider = scripted([echoCall('bad'), echoCall('bad'), echoCall('bad'), 'done'])
    const result = await new Runtime({ provider, model: 'm', breakerThreshold: Infinity }).exec('go', { tools: [echo] })
    expect(result.status).toBe('completed')
  })

  it('breakerThreshold 0 is invalid_options naming the key', () => {
    expect(() => new Runtime({ provider: scripted(['x']), model: 'm', breakerThreshold: 0 })).toThrow(
      /breakerThreshold/,
    )
  })
})
