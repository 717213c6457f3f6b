import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

// A tool's signal is only made when the body reads it (most bodies never do); one read after
// the abort or the timeout must still be aborted, with the reason.

describe('a tool signal read late', () => {
  it('a body that first reads ctx.signal after its timeout fired gets an aborted signal naming the timeout', async () => {
    let seen: { aborted: boolean; reason: unknown } | undefined
    const slow = defineTool({
      name: 'slow',
      description: 'ignores its signal, then looks at it',
      parameters: z.object({}),
      timeoutMs: 20,
      execute: async (_args, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 60))
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason }
        return 'late'
      },
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'slow', args: {} }), 'done']), model: 'm' })
    const result = await runtime.exec('go', { tools: [slow] })
    expect(result.receipts[0]?.status).toBe('timeout')
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(seen?.aborted).toBe(true)
    expect(String((seen?.reason as Error).message)).toContain('timed out after 20 ms')
  })

  it('a body that reads ctx.signal before the exec is aborted sees the abort fire on it', async () => {
    const controller = new AbortController()
    let fired = false
    const wait = defineTool({
      name: 'wait',
      description: 'waits for its signal',
      parameters: z.object({}),
      execute: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            fired = true
            resolve('stopped')
          })
          setTimeout(() => controller.abort(), 5)
        }),
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'wait', args: {} }), 'done']), model: 'm' })
    const result = await runtime.exec('go', { tools: [wait], signal: controller.signal })
    expect(result.status).toBe('aborted')
    expect(fired).toBe(true)
  })
})
