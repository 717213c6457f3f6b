import { Runtime, defineTool, exec } from '@nestor/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const N = 25

describe('many parallel calls print no MaxListenersExceededWarning', () => {
  const wire = useOpenAIWire()
  const warnings: Error[] = []
  const onWarning = (warning: Error) => warnings.push(warning)
  beforeEach(() => {
    warnings.length = 0
    process.on('warning', onWarning)
  })
  afterEach(() => {
    process.off('warning', onWarning)
  })
  const maxListenerWarnings = async () => {
    await new Promise((r) => setTimeout(r, 20))
    return warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)
  }

  it(`${N} parallel tool calls in one message`, async () => {
    const wait = defineTool({
      name: 'wait',
      description: 'waits',
      parameters: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        await new Promise((r) => setTimeout(r, 30))
        return `waited ${n}`
      },
    })
    wire.server.enqueue(
      { body: toolCalls(...Array.from({ length: N }, (_, n) => ({ id: `call_${n}`, name: 'wait', args: { n } }))) },
      { body: text('All done.') },
    )
    const result = await new Runtime({
      provider: wire.provider(),
      model: 'gpt-4o-mini',
      toolExecution: 'parallel',
    }).exec('go', { tools: [wait] })
    expect(result.status).toBe('completed')
    expect(result.receipts.filter((r) => r.status === 'ok')).toHaveLength(N)
    expect(await maxListenerWarnings()).toEqual([])
  })

  it('a tool body that opens many child execs at once', async () => {
    wire.server.fallback = () => ({ body: text('child answer') })
    const fanOut = defineTool({
      name: 'fan_out',
      description: 'asks many children',
      parameters: z.object({}),
      execute: async () => {
        const results = await Promise.all(Array.from({ length: 12 }, (_, i) => exec(`child ${i}`, { toolset: 'none' })))
        return results.map((r) => r.status).join(',')
      },
    })
    wire.server.enqueue({ body: toolCalls({ id: 'call_f', name: 'fan_out' }) })
    const result = await new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' }).exec('go', {
      tools: [fanOut],
    })
    expect(result.status).toBe('completed')
    expect(result.receipts[0]).toMatchObject({ status: 'ok' })
    expect(await maxListenerWarnings()).toEqual([])
  })

  it('many execs sharing the caller’s signal', async () => {
    wire.server.fallback = () => ({ body: text('answer') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const signal = new AbortController().signal
    const results = await Promise.all(Array.from({ length: 15 }, (_, i) => runtime.exec(`q ${i}`, { signal })))
    expect(results.every((r) => r.status === 'completed')).toBe(true)
    expect(await maxListenerWarnings()).toEqual([])
  })
})
