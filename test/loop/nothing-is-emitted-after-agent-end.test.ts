import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect } from '../support/run.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A body that ignores its signal and keeps reporting progress long after it was let go. */
const stubborn = (started: () => void, timeoutMs?: number) =>
  defineTool({
    ...(timeoutMs !== undefined && { timeoutMs }),
    name: 'stubborn',
    description: 'ignores aborts',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      started()
      ctx.update({ step: 1 })
      await pause(60)
      ctx.update({ step: 2 })
      await pause(20)
      ctx.update({ step: 3 })
      return 'finished anyway'
    },
  })

const after = (events: AgentEvent[], execId: string) =>
  events.slice(events.findIndex((e) => e.type === 'agent_end' && e.execId === execId) + 1)

describe('nothing is emitted after agent_end', () => {
  const wire = useOpenAIWire()

  it('a body that ignores the abort and calls ctx.update() later reaches neither iterators nor listeners', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'call_s', name: 'stubborn' }) })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const heard: AgentEvent[] = []
    runtime.on('*', (event) => heard.push(event))
    let run: ReturnType<Runtime['exec']> | undefined
    const tool = stubborn(() => setTimeout(() => run?.abort(), 10))
    run = runtime.exec('go', { tools: [tool] })
    const { events, result } = await collect(run)
    expect(result.status).toBe('aborted')
    const frozen = JSON.stringify(result)
    const lateReader: AgentEvent[] = []
    await pause(150)
    for await (const event of run) lateReader.push(event)

    expect(events.at(-1)?.type).toBe('agent_end')
    expect(lateReader.at(-1)?.type).toBe('agent_end')
    expect(lateReader).toHaveLength(events.length)
    expect(after(heard, result.execId)).toEqual([])
    expect(JSON.stringify(result)).toBe(frozen)
  })

  it('a timed-out body’s later ctx.update() never follows its tool_end', async () => {
    wire.server.enqueue(
      { body: toolCalls({ id: 'call_s', name: 'stubborn' }) },
      { body: text('Done', ' after a slow answer.'), delayMs: 60, chunkSize: 40 },
    )
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const tool = stubborn(() => {}, 30)
    const { events, result } = await collect(runtime.exec('go', { tools: [tool] }))
    await pause(100)
    expect(result.status).toBe('completed')
    const end = events.findIndex((e) => e.type === 'tool_end')
    expect(events[end]).toMatchObject({ receipt: { status: 'timeout' } })
    expect(events.slice(end).filter((e) => e.type === 'tool_update')).toEqual([])
  })
})
