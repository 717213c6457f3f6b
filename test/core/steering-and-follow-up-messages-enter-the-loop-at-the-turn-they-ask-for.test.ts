import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecRun, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems, textOf } from '../support/run.js'

describe('steering and follow-up', () => {
  function setup(steering?: 'interrupt' | 'after-turn') {
    const ran: string[] = []
    let run: ExecRun | undefined
    const step = defineTool({
      name: 'step',
      description: 'd',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        ran.push(`step${n}`)
        if (n === 1) run?.steer('change of plan')
        return `did ${n}`
      },
    })
    const provider = scripted([
      calls({ name: 'step', args: { n: 1 } }, { name: 'step', args: { n: 2 } }, { name: 'step', args: { n: 3 } }),
      'replanned',
    ])
    const runtime = new Runtime({ provider, model: 'm', ...(steering && { steering }) })
    run = runtime.exec('go', { tools: [step] })
    return { run, ran, provider }
  }

  it('a steering message skips the remaining calls of the message and is injected before the next model call', async () => {
    const { run, ran, provider } = setup()
    const { result, events } = await collect(run)
    expect(ran).toEqual(['step1'])
    const toolResults = result.history.filter((m): m is ToolResultMessage => m.role === 'toolResult')
    const skipped = 'Skipped due to queued user message'
    expect(toolResults.map(textOf)).toEqual(['did 1', skipped, skipped])
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'skipped', 'skipped'])
    const second = provider.requests[1]!.messages
    expect(second.at(-1)).toEqual({ role: 'user', content: 'change of plan' })
    expect(historyProblems(result.history)).toEqual([])
    // The queued message appears as message events.
    expect(
      events.some(
        (e) => e.type === 'message_start' && e.message.role === 'user' && e.message.content === 'change of plan',
      ),
    ).toBe(true)
    expect(result.text).toBe('replanned')
  })

  it("with steering 'after-turn' every call of the message runs before the queued message is injected", async () => {
    const { run, ran, provider } = setup('after-turn')
    const result = await run
    expect(ran).toEqual(['step1', 'step2', 'step3'])
    expect(provider.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'change of plan' })
    expect(result.receipts.every((r) => r.status === 'ok')).toBe(true)
  })

  it('a text reply does not end the loop while steering is queued', async () => {
    const provider = scripted([{ content: [{ type: 'text', text: 'first answer' }] }, 'second answer'], { delayMs: 5 })
    const run: ExecRun = new Runtime({ provider, model: 'm' }).exec('go')
    let steered = false
    for await (const e of run) {
      if (!steered && e.type === 'message_delta') {
        run.steer('also this')
        steered = true
      }
    }
    const result = await run
    expect(provider.requests).toHaveLength(2)
    expect(provider.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'also this' })
    expect(result.text).toBe('second answer')
  })

  it('a follow-up is read only when the loop would end, and the loop then continues', async () => {
    const provider = scripted(['answer one', 'answer two'])
    const run = new Runtime({ provider, model: 'm' }).exec('go')
    run.followUp('and then?')
    const result = await run
    expect(provider.requests).toHaveLength(2)
    expect(provider.requests[0]!.messages.map(textOf)).toEqual(['go'])
    expect(provider.requests[1]!.messages.map(textOf)).toEqual(['go', 'answer one', 'and then?'])
    expect(result.text).toBe('answer two')
  })

  it('steering sent right after exec() returns joins the first model call', async () => {
    const provider = scripted(() => 'ok')
    const run = new Runtime({ provider, model: 'm' }).exec('go')
    run.steer('and be brief')
    await run
    expect(provider.requests).toHaveLength(1)
    expect(provider.requests[0]?.messages.filter((m) => m.role === 'user').map(textOf)).toEqual(['go', 'and be brief'])
  })

  it("queueMode 'one' injects one queued message per turn, 'all' drains the queue at once", async () => {
    for (const queueMode of ['one', 'all'] as const) {
      const provider = scripted(() => 'ok')
      const run = new Runtime({ provider, model: 'm', queueMode }).exec('go')
      run.followUp('f1')
      run.followUp('f2')
      await run
      const userTexts = provider.requests.map((r) => r.messages.filter((m) => m.role === 'user').map(textOf))
      if (queueMode === 'one') {
        expect(provider.requests).toHaveLength(3)
        expect(userTexts[1]).toEqual(['go', 'f1'])
        expect(userTexts[2]).toEqual(['go', 'f1', 'f2'])
      } else {
        expect(provider.requests).toHaveLength(2)
        expect(userTexts[1]).toEqual(['go', 'f1', 'f2'])
      }
    }
  })
})
