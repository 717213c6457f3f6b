import { Runtime, currentExec, defineTool, type AgentEvent, type ExecResult, type ExecRun } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect } from '../support/run.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

describe('an exec started from a listener is an independent root', () => {
  const wire = useOpenAIWire()

  it('a tool_update listener that calls exec() during a tool body opens a root, outside the parent’s stream', async () => {
    let sideDone: (result: ExecResult) => void = () => {}
    const sideResult = new Promise<ExecResult>((resolve) => (sideDone = resolve))
    const report = defineTool({
      name: 'report',
      description: 'reports progress',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        ctx.update({ progress: 'half' })
        // Waits for the side exec, so the wire serves the requests in a known order.
        await sideResult
        return 'reported'
      },
    })
    wire.server.enqueue(
      { body: toolCalls({ id: 'call_r', name: 'report' }) },
      { body: text('Side answer.') },
      { body: text('Main answer.') },
    )
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    let side: ExecRun | undefined
    let frameInListener: unknown = 'not called'
    runtime.on('tool_update', () => {
      frameInListener = currentExec()
      side ??= runtime.exec('side question', { toolset: 'none' })
      void side.result.then(sideDone)
    })
    const main = runtime.exec('main question', { tools: [report] })
    const { events, result } = await collect(main)
    const sideEvents: AgentEvent[] = []
    for await (const event of side!) sideEvents.push(event)
    const sideEnd = await sideResult

    expect(result.status).toBe('completed')
    expect(result.text).toBe('Main answer.')
    expect(sideEnd.status).toBe('completed')
    expect(sideEnd.text).toBe('Side answer.')
    expect(frameInListener).toBeUndefined()
    expect(sideEvents[0]).toMatchObject({ type: 'agent_start', depth: 0 })
    expect(sideEvents.every((e) => e.parentExecId === undefined && e.depth === 0)).toBe(true)
    expect(events.some((e) => e.execId === sideEnd.execId)).toBe(false)
  })
})
