import { Runtime, defineTool, type ExecRun } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect, historyProblems } from '../support/run.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const echo = defineTool({ name: 'echo', description: 'echoes', parameters: z.object({}), execute: () => 'echoed' })

/** A prepareTurn that, on the given iteration, aborts the run and then answers late anyway. */
function abortingIn(iteration: number, run: () => ExecRun | undefined) {
  return async ({ iteration: current }: { iteration: number }) => {
    if (current !== iteration) return undefined
    // The first prepareTurn starts inside exec(): let exec() return the run before aborting it.
    await Promise.resolve()
    run()?.abort()
    await new Promise((r) => setTimeout(r, 30))
    return { toolChoice: 'auto' as const }
  }
}

describe('an abort during prepareTurn starts no model call', () => {
  const wire = useOpenAIWire()

  it('aborted in the first prepareTurn: no request, no iteration, no turn events, no assistant message', async () => {
    wire.server.enqueue({ body: text('unreachable') })
    let run: ExecRun | undefined
    const runtime = new Runtime({
      provider: wire.provider(),
      model: 'gpt-4o-mini',
      hooks: { prepareTurn: abortingIn(1, () => run) },
    })
    run = runtime.exec('go')
    const { events, result } = await collect(run)
    expect(result.status).toBe('aborted')
    expect(wire.server.requests).toHaveLength(0)
    expect(result.iterationsUsed).toBe(0)
    expect(events.filter((e) => e.type === 'turn_start' || e.type === 'turn_end')).toEqual([])
    expect(result.history.map((m) => m.role)).toEqual(['user'])
  })

  it('aborted in the second prepareTurn: the first turn stands alone and the history ends with its tool result', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'call_e', name: 'echo' }) }, { body: text('unreachable') })
    let run: ExecRun | undefined
    const runtime = new Runtime({
      provider: wire.provider(),
      model: 'gpt-4o-mini',
      hooks: { prepareTurn: abortingIn(2, () => run) },
    })
    run = runtime.exec('go', { tools: [echo] })
    const { events, result } = await collect(run)
    expect(result.status).toBe('aborted')
    expect(wire.server.requests).toHaveLength(1)
    expect(result.iterationsUsed).toBe(1)
    expect(events.filter((e) => e.type === 'turn_start')).toHaveLength(1)
    expect(events.filter((e) => e.type === 'turn_end')).toHaveLength(1)
    expect(result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult'])
    expect(historyProblems(result.history)).toEqual([])
  })
})
