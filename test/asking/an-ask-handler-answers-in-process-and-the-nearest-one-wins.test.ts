import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type InputRequest } from '@nestor/core'
import { useOpenAIWire } from '../support/openai-loop-wire.js'
import { startPaymentsApi, type PaymentsApi } from '../support/payments-api.js'
import { historyProblems } from '../support/run.js'
import { confirmation, refundTree, scriptRefunds } from './support/refund-tree.js'

describe('an ask handler answers in process', () => {
  const wire = useOpenAIWire()
  let api: PaymentsApi
  beforeEach(async () => {
    api = await startPaymentsApi()
    scriptRefunds(wire.server)
  })
  afterEach(() => api.close())
  const tree = () => refundTree(api, (ctx) => ctx.ask('Refund 120 EUR?', confirmation))
  const runtime = (ask?: (request: InputRequest) => unknown) =>
    new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', ...(ask && { ask }) })

  it("gets the question with where it was asked; the exec's own handler wins and reaches nested execs", async () => {
    const asked: { by: string; request: InputRequest }[] = []
    const rt = runtime((request) => (asked.push({ by: 'runtime', request }), { confirm: false }))
    const { tools } = tree()
    const run = rt.exec('go', { tools, ask: (request) => (asked.push({ by: 'exec', request }), { confirm: true }) })
    const announced: unknown[] = []
    run.subscribe((e) => e.type === 'input_required' && announced.push(...e.inputs))
    const done = await run
    expect(done.status).toBe('completed')
    expect(done.text).toBe('root: desk: refund ch_1 sent')
    expect(asked.map((a) => a.by)).toEqual(['exec'])
    const request = asked[0]!.request
    expect(request).toMatchObject({ toolCallId: 'call_refund', depth: 1, question: 'Refund 120 EUR?' })
    expect(request.path).toEqual([run.execId, request.execId])
    expect(request.signal).toBeInstanceOf(AbortSignal)
    expect(announced).toEqual([expect.objectContaining({ id: request.id, toolCallId: 'call_refund' })])
  })

  it('an answer its schema refuses, or a handler that refuses, is the call error; the tree goes on', async () => {
    for (const [ask, expected] of [
      [() => ({ confirm: 'sure' }), /does not match its schema/],
      [
        () => {
          throw new NestorError('input_unavailable', 'the person declined')
        },
        /the person declined/,
      ],
      [
        () => {
          throw new Error('socket closed')
        },
        /the ask handler failed: socket closed/,
      ],
    ] as const) {
      const { tools } = tree()
      const done = await runtime(ask).exec('go', { tools })
      expect(done.status).toBe('completed')
      // The desk's model read the refund's error result, and said so.
      expect(done.text).toMatch(expected)
      expect(historyProblems(done.history)).toEqual([])
    }
  })

  it('an abort ends the wait for a handler that never answers', async () => {
    let waiting!: () => void
    const asking = new Promise<void>((resolve) => (waiting = resolve))
    const rt = runtime(() => (waiting(), new Promise(() => {})))
    const { tools } = tree()
    const run = rt.exec('go', { tools })
    await asking
    run.abort('the person left')
    const done = await run
    expect(done.status).toBe('aborted')
    expect(done.receipts.map((r) => [r.toolName, r.status])).toEqual([['desk', 'aborted']])
    expect(historyProblems(done.history)).toEqual([])
  })

  it('in a batch, which cannot pause, a question no handler answers fails input_unavailable', async () => {
    const ask = defineTool({
      name: 'ask',
      description: 'asks',
      parameters: z.object({}),
      execute: (_args, ctx) => ctx.ask('Which account?', z.object({ account: z.string() })),
    })
    const batch = await runtime().runBatch([{ tool: 'ask', args: {} }], { tools: [ask] })
    expect(batch.results[0]?.receipt.status).toBe('tool_error')
    expect(JSON.stringify(batch.results[0]?.result.content)).toMatch(/no one can answer/)
  })
})
