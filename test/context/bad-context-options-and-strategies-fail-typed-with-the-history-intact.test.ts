import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

const tool = defineTool({
  name: 'fetch_doc',
  description: 'Fetches a document',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `doc ${n}: ${'text '.repeat(400)}`,
})
// No reported usage (input 0): the loop estimates the whole history, as it does for a model that reports none.
const turns = (n: number) => [
  ...Array.from({ length: n }, (_, i) => ({ ...calls({ name: 'fetch_doc', args: { n: i } }), usage: { input: 0 } })),
  'done',
]
const runtime = (n: number) => new Runtime({ provider: scripted(turns(n)), model: 'm' })
/** Six tool turns in a window of 1,500 tokens: the strategy is asked to compact. */
const compactWith = (strategy: (messages: Message[]) => Message[] | Promise<Message[]>) =>
  runtime(6).exec('go', { tools: [tool], context: { maxTokens: 1500, reserveTokens: 100, strategy } })

describe('bad context options', () => {
  it.each([
    [{ maxTokens: 1000, reserveTokens: 1000 }, /context\.reserveTokens/],
    [{ maxTokens: 1000.5 }, /context\.maxTokens|context/],
    [{ maxTokens: 0 }, /context/],
    [{ reserveTokens: -1 }, /context/],
    [{ strategy: 'forget' }, /context/],
    [{ window: 5 }, /context/],
  ])('%j is invalid_options at the call, before any request', (context, named) => {
    const rt = runtime(1)
    expect(() => rt.exec('go', { context: context as never })).toThrow(named)
  })

  it('a runtime-wide context is checked by the constructor', () => {
    expect(
      () => new Runtime({ provider: scripted(['x']), model: 'm', context: { maxTokens: 10, reserveTokens: 20 } }),
    ).toThrow(/context\.reserveTokens/)
  })

  it('a strategy that throws fails the exec hook_error with the history intact', async () => {
    const result = await compactWith(() => {
      throw new Error('no room')
    })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('hook_error')
    expect(result.error?.message).toMatch(/context\.strategy.*no room/)
    expect(historyProblems(result.history)).toEqual([])
    expect(result.history.filter((m) => m.role === 'toolResult').length).toBeGreaterThan(1)
  })

  it('a strategy whose returned history throws while it is checked fails the exec hook_error, not internal', async () => {
    const result = await compactWith((messages) => {
      // A lazily loaded page of history whose first message cannot be read.
      const kept = messages.slice()
      Object.defineProperty(kept, 0, {
        get() {
          throw new Error('page 1 is not loaded')
        },
      })
      return kept
    })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('hook_error')
    expect(result.error?.message).toMatch(/context\.strategy.*page 1 is not loaded/)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a strategy that parts a tool call from its result fails invalid_options with the history intact', async () => {
    let before: Message[] = []
    const result = await compactWith((messages) => {
      before = messages
      return messages.filter((m) => m.role !== 'toolResult')
    })
    expect(result.error?.code).toBe('invalid_options')
    expect(result.error?.message).toMatch(/context\.strategy.*breaks a tool call from its result/)
    expect(result.history).toEqual(before)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a custom strategy that keeps the task and the latest turn is applied and reported', async () => {
    const result = await runtime(8).exec('go', {
      tools: [tool],
      context: {
        maxTokens: 1500,
        reserveTokens: 100,
        strategy: (messages) => [messages[0] as Message, ...messages.slice(-2)],
      },
    })
    expect(result.status).toBe('completed')
    expect(historyProblems(result.history)).toEqual([])
    expect(result.history.length).toBeLessThan(8)
  })
})
