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
/** A call whose argument text is not a JSON object (the scripted provider streams it as given). */
const malformed = (text: string) => ({ content: [{ type: 'toolCall' as const, name: 'echo', arguments: text }] })

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

  it('differently malformed arguments are different failures; the same malformed text repeated trips', async () => {
    const provider = scripted([malformed('{"v": '), malformed('[1, 2]'), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [echo] })
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => r.status)).toEqual(['invalid_arguments', 'invalid_arguments'])
    expect(new Set(result.receipts.map((r) => r.signature)).size).toBe(2)

    const again = scripted([malformed('{"v": '), malformed('{"v": '), 'never'])
    const tripped = await new Runtime({ provider: again, model: 'm' }).exec('go', { tools: [echo] })
    expect(tripped.error?.code).toBe('circuit_breaker')
    expect(again.requests).toHaveLength(2)
    expect(historyProblems(tripped.history)).toEqual([])
  })

  it('a call rejected at approval counts as a failure of its signature', async () => {
    const guarded = defineTool({
      name: 'guarded',
      description: 'Needs approval',
      parameters: z.object({ v: z.string() }),
      needsApproval: true,
      execute: ({ v }) => v,
    })
    const guardedCall = calls({ name: 'guarded', args: { v: 'x' } })
    const provider = scripted([guardedCall, guardedCall, 'never'])
    const result = await new Runtime({
      provider,
      model: 'm',
      approve: () => ({ approved: false, reason: 'no' }),
    }).exec('go', { tools: [guarded] })
    expect(result.receipts.map((r) => r.status)).toEqual(['rejected', 'rejected'])
    expect(result.error?.code).toBe('circuit_breaker')
    expect(result.error?.message).toBe('tool guarded failed 2 consecutive times with identical arguments')
    expect(provider.requests).toHaveLength(2)
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
