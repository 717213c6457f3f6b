import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('batch abort', () => {
  it('aborting the signal aborts the call in flight and answers the rest without running them', async () => {
    const ran: number[] = []
    const controller = new AbortController()
    const step = defineTool({
      name: 'step',
      description: 'd',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }, ctx) =>
        new Promise<string>((resolve, reject) => {
          ran.push(n)
          if (n === 2) controller.abort()
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped')))
          setTimeout(() => resolve(`done ${n}`), 5)
        }),
    })
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    const batch = await runtime.runBatch(
      [1, 2, 3, 4].map((n) => ({ tool: 'step', args: { n }, callKey: `k${n}` })),
      { tools: [step], signal: controller.signal },
    )
    expect(ran).toEqual([1, 2])
    expect(batch.receipts.map((r) => r.status)).toEqual(['ok', 'aborted', 'aborted', 'aborted'])
    expect(batch.results.map((r) => r.callKey)).toEqual(['k1', 'k2', 'k3', 'k4'])
  })
})
