import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'
import { resultText, toolEnds, toolResults } from '../support/tool-results.js'

/** A body that never settles and ignores its signal: only the runtime's timeout can end it. */
const hang = () => new Promise<never>(() => {})

describe('timeouts', () => {
  it('a hanging tool that ignores its signal times out at its own timeoutMs, gets an error result with status timeout, and the loop asks the model again', async () => {
    const stuck = defineTool({
      name: 'stuck',
      description: 'Hangs',
      parameters: z.object({}),
      timeoutMs: 60,
      execute: hang,
    })
    const provider = scripted([calls({ name: 'stuck' }), 'moved on'])
    const started = Date.now()
    const { events, result } = await collect(new Runtime({ provider, model: 'm' }).exec('go', { tools: [stuck] }))
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(result.status).toBe('completed')
    expect(result.text).toBe('moved on')
    expect(provider.requests).toHaveLength(2)
    const end = toolEnds(events, 'stuck')[0]!
    expect(end.isError).toBe(true)
    expect(end.receipt.status).toBe('timeout')
    expect(resultText(end.result)).toBe('tool stuck timed out after 60 ms')
  })

  it("the runtime's toolTimeoutMs applies to tools without their own, and the tool's signal is aborted", async () => {
    let sawAbort = false
    const stuck = defineTool({
      name: 'stuck',
      description: 'Hangs until aborted',
      parameters: z.object({}),
      execute: (_args, ctx) => new Promise<string>(() => ctx.signal.addEventListener('abort', () => (sawAbort = true))),
    })
    const result = await new Runtime({
      provider: scripted([calls({ name: 'stuck' }), 'next']),
      model: 'm',
      toolTimeoutMs: 40,
    }).exec('go', { tools: [stuck] })
    expect(result.status).toBe('completed')
    expect(result.receipts[0]!.status).toBe('timeout')
    expect(resultText(toolResults(result)[0]!)).toBe('tool stuck timed out after 40 ms')
    expect(sawAbort).toBe(true)
  })
})

describe('retries', () => {
  it('a tool that always fails with retries: 2 is attempted exactly 3 times, and its receipt says so', async () => {
    let attempts = 0
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails',
      parameters: z.object({}),
      retries: 2,
      execute: () => {
        attempts++
        throw new Error(`failure ${attempts}`)
      },
    })
    const result = await new Runtime({ provider: scripted([calls({ name: 'broken' }), 'ok']), model: 'm' }).exec('go', {
      tools: [broken],
    })
    expect(attempts).toBe(3)
    expect(result.receipts[0]).toMatchObject({ status: 'tool_error', attempts: 3 })
    expect(resultText(toolResults(result)[0]!)).toBe('failure 3')
  })

  it('a retry that succeeds stops retrying', async () => {
    let attempts = 0
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails once',
      parameters: z.object({}),
      retries: 5,
      execute: () => (++attempts < 2 ? Promise.reject(new Error('once')) : 'ok'),
    })
    const result = await new Runtime({ provider: scripted([calls({ name: 'flaky' }), 'ok']), model: 'm' }).exec('go', {
      tools: [flaky],
    })
    expect(attempts).toBe(2)
    expect(result.receipts[0]).toMatchObject({ status: 'ok', attempts: 2 })
  })
})

describe('cache', () => {
  it('a cacheable tool called again with the same arguments is served from the cache without running, with receipt.cached true', async () => {
    let runs = 0
    const rates = defineTool({
      name: 'rates',
      description: 'FX rates',
      parameters: z.object({ base: z.string() }),
      cacheable: true,
      execute: ({ base }) => `rates for ${base} #${++runs}`,
    })
    const runtime = new Runtime({
      provider: scripted([
        calls({ name: 'rates', args: { base: 'EUR' } }),
        'a',
        calls({ name: 'rates', args: { base: 'EUR' } }),
        'b',
      ]),
      model: 'm',
    })
    const first = await runtime.exec('one', { tools: [rates] })
    const second = await runtime.exec('two', { tools: [rates] })
    expect(runs).toBe(1)
    expect(first.receipts[0]).toMatchObject({ status: 'ok', cached: false, attempts: 1 })
    expect(second.receipts[0]).toMatchObject({ status: 'ok', cached: true, attempts: 0 })
    expect(resultText(toolResults(second)[0]!)).toBe('rates for EUR #1')
  })

  it('a tool that is not cacheable runs every time', async () => {
    let runs = 0
    const now = defineTool({
      name: 'now',
      description: 'Clock',
      parameters: z.object({}),
      execute: () => String(++runs),
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'now' }), 'a', calls({ name: 'now' }), 'b']),
      model: 'm',
    })
    await runtime.exec('one', { tools: [now] })
    const second = await runtime.exec('two', { tools: [now] })
    expect(runs).toBe(2)
    expect(second.receipts[0]!.cached).toBe(false)
  })
})

describe('output gate', () => {
  const quote = (value: unknown) =>
    defineTool({
      name: 'quote',
      description: 'A price quote',
      parameters: z.object({}),
      output: z.object({ price: z.number() }),
      execute: () => value,
    })

  it('a result failing the output schema becomes an error result naming the schema failure', async () => {
    const result = await new Runtime({ provider: scripted([calls({ name: 'quote' }), 'ok']), model: 'm' }).exec('go', {
      tools: [quote({ price: 'free' })],
    })
    const answer = toolResults(result)[0]!
    expect(answer.isError).toBe(true)
    expect(resultText(answer)).toMatch(/failed its output schema/)
    expect(resultText(answer)).toContain('price')
    expect(result.receipts[0]!.status).toBe('tool_error')
  })

  it('a result matching the output schema passes through to the model as JSON', async () => {
    const result = await new Runtime({ provider: scripted([calls({ name: 'quote' }), 'ok']), model: 'm' }).exec('go', {
      tools: [quote({ price: 12.5 })],
    })
    const answer = toolResults(result)[0]!
    expect(answer.isError).toBe(false)
    expect(resultText(answer)).toBe('{"price":12.5}')
    expect(result.receipts[0]!.status).toBe('ok')
  })
})
