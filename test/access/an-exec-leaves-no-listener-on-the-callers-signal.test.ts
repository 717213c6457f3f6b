import { getEventListeners } from 'node:events'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, exec } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'

describe("an exec removes every listener it added to the caller's signal", () => {
  it('10,000 runs on one long-lived signal leave 0 listeners on it', async () => {
    const signal = new AbortController().signal
    const runtime = new Runtime({ provider: scripted(Array.from({ length: 10_000 }, () => 'ok')), model: 'm' })
    let peak = 0
    for (let i = 0; i < 10_000; i++) {
      const run = runtime.exec('hi', { signal })
      peak = Math.max(peak, getEventListeners(signal, 'abort').length)
      expect((await run).status).toBe('completed')
    }
    expect(peak).toBe(1)
    expect(getEventListeners(signal, 'abort')).toHaveLength(0)
  })

  it('runs with tools, nested execs, failures and aborts leave none either', async () => {
    const outer = new AbortController()
    const child = defineTool({
      name: 'child',
      description: 'Opens a nested exec',
      parameters: z.object({}),
      execute: async () => (await exec('inner')).text,
    })
    const boom = defineTool({
      name: 'boom',
      description: 'Fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom')
      },
    })
    const script = []
    for (let i = 0; i < 50; i++) script.push(calls({ name: 'child' }, { name: 'boom' }), 'inner answer', 'done')
    const runtime = new Runtime({ provider: scripted(script), model: 'm' })
    for (let i = 0; i < 50; i++)
      expect((await runtime.exec('go', { tools: [child, boom], signal: outer.signal })).status).toBe('completed')
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0)

    // An exec aborted through its own run leaves nothing on the caller's signal.
    const waiting = new Runtime({ provider: scripted([calls({ name: 'child' })]), model: 'm' })
    const run = waiting.exec('go', { tools: [child], signal: outer.signal })
    run.abort()
    expect((await run).status).toBe('aborted')
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0)
  })
})
