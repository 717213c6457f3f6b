import { Runtime, defineTool, type AssistantMessage, type Provider } from '@nestor/core'
import { emptyUsage, type ModelEvent } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { collect, historyProblems, textOf } from '../support/run.js'
import { text, toolCalls, useOpenAIWire, within } from '../support/openai-loop-wire.js'

const echo = defineTool({ name: 'echo', description: 'echoes', parameters: z.object({}), execute: () => 'echoed' })
const never = () => new Promise<never>(() => {})
const begun = (): AssistantMessage => ({
  role: 'assistant',
  content: [],
  stopReason: 'stop',
  usage: emptyUsage(),
  provider: 'stuck',
  model: 'm',
})

/** Streams "partial " and then waits forever, deaf to its signal. */
const deafGenerator: Provider = {
  name: 'stuck',
  async *stream(): AsyncGenerator<ModelEvent> {
    const message = begun()
    yield { type: 'start', message }
    message.content.push({ type: 'text', text: 'partial ' })
    yield { type: 'text_delta', delta: 'partial ' }
    await never()
  },
}

/** The same through the streamTo fast path: a promise that never resolves. */
const deafStreamTo: Provider = {
  name: 'stuck',
  stream: () => {
    throw new Error('streamTo is used')
  },
  streamTo: async (_request, _signal, sink) => {
    const message = begun()
    sink({ type: 'start', message })
    message.content.push({ type: 'text', text: 'partial ' })
    sink({ type: 'text_delta', delta: 'partial ' })
    await never()
  },
}

async function abortAfterFirstDelta(runtime: Runtime) {
  const run = runtime.exec('go')
  void run.result.then(() => {})
  const events: string[] = []
  const drained = (async () => {
    for await (const event of run) {
      events.push(event.type)
      if (event.type === 'message_delta') run.abort()
    }
  })()
  await within(2000, drained)
  return { result: await within(2000, run), events }
}

describe('abort settles a run whatever the provider or hook does', () => {
  const wire = useOpenAIWire()

  it.each([
    ['an async generator awaiting a promise that never resolves', deafGenerator],
    ['a streamTo that never resolves', deafStreamTo],
  ])('%s: aborted, with the partial message kept', async (_label, provider) => {
    const { result, events } = await abortAfterFirstDelta(new Runtime({ provider, model: 'm' }))
    expect(result.status).toBe('aborted')
    expect(result.error?.code).toBe('aborted')
    const last = result.history.at(-1) as AssistantMessage
    expect(last).toMatchObject({ role: 'assistant', stopReason: 'aborted' })
    expect(textOf(last)).toBe('partial ')
    expect(events.at(-1)).toBe('agent_end')
  })

  it('scripted(() => new Promise(() => {})): aborted, with the started message kept', async () => {
    const run = new Runtime({ provider: scripted(() => never()), model: 'm' }).exec('go')
    for await (const event of run) if (event.type === 'message_start' && event.message.role === 'assistant') run.abort()
    const result = await within(2000, run)
    expect(result.status).toBe('aborted')
    expect(result.history.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' })
  })

  it('a prepareTurn hook that never resolves: aborted, no model call', async () => {
    wire.server.enqueue({ body: text('unreachable') })
    let entered: () => void = () => {}
    const inHook = new Promise<void>((resolve) => (entered = resolve))
    const runtime = new Runtime({
      provider: wire.provider(),
      model: 'gpt-4o-mini',
      hooks: {
        prepareTurn: () => {
          entered()
          return never()
        },
      },
    })
    const run = runtime.exec('go')
    await inHook
    run.abort()
    const { result } = await within(2000, collect(run))
    expect(result.status).toBe('aborted')
    expect(wire.server.requests).toHaveLength(0)
  })

  it.each(['beforeToolCall', 'afterToolCall'] as const)(
    'a %s hook that never resolves: aborted, the call answered',
    async (name) => {
      wire.server.enqueue({ body: toolCalls({ id: 'call_e', name: 'echo' }) }, { body: text('unreachable') })
      let entered: () => void = () => {}
      const inHook = new Promise<void>((resolve) => (entered = resolve))
      const hang = () => {
        entered()
        return never()
      }
      const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini', hooks: { [name]: hang } })
      const run = runtime.exec('go', { tools: [echo] })
      await inHook
      run.abort()
      const { result } = await within(2000, collect(run))
      expect(result.status).toBe('aborted')
      expect(result.receipts.map((r) => r.toolCallId)).toEqual(['call_e'])
      expect(historyProblems(result.history)).toEqual([])
      expect(wire.server.requests).toHaveLength(1)
    },
  )

  it('a real SDK stream stalled mid-answer on loopback: aborted, with the partial text kept', async () => {
    const body = text('Hello', ' there', ' and more')
    wire.server.enqueue({ body, chunkSize: 16, stallAfterBytes: body.indexOf(' and more') })
    const { result } = await abortAfterFirstDelta(new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' }))
    expect(result.status).toBe('aborted')
    expect(textOf(result.history.at(-1)!)).toMatch(/^Hello/)
  })
})
