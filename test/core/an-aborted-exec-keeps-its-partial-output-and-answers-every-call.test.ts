import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems, textOf } from '../support/run.js'

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length

describe('abort', () => {
  it('abort in the model stream keeps the partial assistant message with stopReason aborted', async () => {
    const provider = scripted(['one two three four five six seven eight'], { delayMs: 10, chunkSize: 4 })
    const before = timers()
    const run = new Runtime({ provider, model: 'm' }).exec('go')
    let deltas = 0
    for await (const e of run) {
      if (e.type === 'message_delta' && ++deltas === 2) run.abort()
    }
    const result = await run
    expect(result.status).toBe('aborted')
    expect(result.error?.code).toBe('aborted')
    const last = result.history.at(-1)!
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted' })
    expect(textOf(last)).toBe('one two ')
    expect(timers()).toBeLessThanOrEqual(before)
  })

  it('abort while tool calls are streaming answers every call in the partial message', async () => {
    const provider = scripted([calls({ name: 'a', args: { long: 'x'.repeat(200) } }, { name: 'b' })], {
      delayMs: 5,
      chunkSize: 20,
    })
    const a = defineTool({ name: 'a', description: 'd', parameters: z.object({}).passthrough(), execute: () => 'a' })
    const run = new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    let n = 0
    for await (const e of run) if (e.type === 'message_delta' && ++n === 3) run.abort()
    const result = await run
    expect(result.status).toBe('aborted')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('abort in a tool: the tool sees its signal aborted, every call gets a result, no further model call', async () => {
    let sawAbort = false
    let listening: () => void = () => {}
    const bodyListens = new Promise<void>((resolve) => (listening = resolve))
    const wait = defineTool({
      name: 'wait',
      description: 'd',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true
            reject(new Error('stopped'))
          })
          listening()
        }),
    })
    const never = defineTool({ name: 'never', description: 'd', parameters: z.object({}), execute: () => 'ran' })
    const provider = scripted([calls({ name: 'wait' }, { name: 'never' }), 'unreachable'])
    const run = new Runtime({ provider, model: 'm' }).exec('go', { tools: [wait, never] })
    const unhandled: unknown[] = []
    const onUnhandled = (r: unknown) => unhandled.push(r)
    process.on('unhandledRejection', onUnhandled)
    void bodyListens.then(() => run.abort())
    const result = await run
    await new Promise((r) => setTimeout(r, 20))
    process.off('unhandledRejection', onUnhandled)
    expect(sawAbort).toBe(true)
    expect(result.status).toBe('aborted')
    expect(provider.requests).toHaveLength(1)
    const results = result.history.filter((m): m is ToolResultMessage => m.role === 'toolResult')
    expect(results.map((r) => [r.toolName, r.isError, textOf(r)])).toEqual([
      ['wait', true, 'aborted'],
      ['never', true, 'aborted'],
    ])
    expect(result.receipts.map((r) => r.status)).toEqual(['aborted', 'aborted'])
    expect(historyProblems(result.history)).toEqual([])
    expect(unhandled).toEqual([])
  })

  it('a tool that ignores its signal does not hold the aborted exec', async () => {
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'd',
      parameters: z.object({}),
      execute: () => new Promise<string>((r) => setTimeout(() => r('late'), 300)),
    })
    const run = new Runtime({ provider: scripted([calls({ name: 'stubborn' }), 'x']), model: 'm' }).exec('go', {
      tools: [stubborn],
    })
    for await (const e of run) if (e.type === 'tool_start') run.abort()
    const started = Date.now()
    const result = await run
    expect(Date.now() - started).toBeLessThan(250)
    expect(result.status).toBe('aborted')
  })

  it('an external AbortSignal aborts the exec', async () => {
    const controller = new AbortController()
    const provider = scripted(['a b c d e f g h i j'], { delayMs: 10, chunkSize: 2 })
    const run = new Runtime({ provider, model: 'm' }).exec('go', { signal: controller.signal })
    setTimeout(() => controller.abort(), 25)
    const { result, events } = await collect(run)
    expect(result.status).toBe('aborted')
    expect(events.at(-1)?.type).toBe('agent_end')
  })
})
