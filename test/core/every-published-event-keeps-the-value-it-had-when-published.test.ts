import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call } from '../support/agent-runs.js'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'

// A listener (an SSE writer, a store, a UI) keeps what it was given: each event is recorded as
// JSON when it is published and compared with the same object once the exec has ended. A live
// frame and its replay must be the same, and a UI that starts from message_start and appends
// deltas must not see the text twice.
async function publishedAndLater(runtime: Runtime, run: () => PromiseLike<unknown>) {
  const kept: { event: AgentEvent; then: string }[] = []
  runtime.on('*', (event) => kept.push({ event, then: JSON.stringify(event) }))
  await run()
  return kept
}

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

function expectUnchanged(kept: { event: AgentEvent; then: string }[]) {
  expect(kept.length).toBeGreaterThan(5)
  for (const { event, then } of kept)
    expect({ type: event.type, now: JSON.stringify(event) }).toEqual({ type: event.type, now: then })
}

describe('every published event is a fixed value', () => {
  it('with scripted(): message_start holds the reply as it started (no text, no usage) and never fills in', async () => {
    const runtime = new Runtime({ provider: scripted([call('add', { a: 2, b: 3 }), 'The sum is 5.']), model: 'm' })
    const kept = await publishedAndLater(runtime, () => runtime.exec('2 + 3?', { tools: [add] }))
    expectUnchanged(kept)
    const starts = kept.filter((k) => k.event.type === 'message_start' && k.event.message.role === 'assistant')
    expect(starts).toHaveLength(2)
    for (const { event } of starts) if (event.type === 'message_start') expect(event.message.content).toEqual([])
    const end = kept.findLast((k) => k.event.type === 'message_end')?.event
    expect(end?.type === 'message_end' && end.message).toMatchObject({
      content: [{ type: 'text', text: 'The sum is 5.' }],
    })
  })

  const wire = useOpenAIWire()
  it('with the openai SDK streaming from a server: tool calls, text and usage reach only later events', async () => {
    wire.server.enqueue(
      { body: toolCalls({ id: 'call_1', name: 'add', args: { a: 2, b: 3 } }) },
      { body: text('The sum ', 'is 5.') },
    )
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const kept = await publishedAndLater(runtime, () => runtime.exec('2 + 3?', { tools: [add] }))
    expectUnchanged(kept)
    const deltas = kept.flatMap((k) =>
      k.event.type === 'message_delta' && k.event.delta.kind === 'text' ? [k.event.delta.text] : [],
    )
    expect(deltas.join('')).toBe('The sum is 5.')
  })

  it('with typed output, an aborted stream and a failing provider', async () => {
    const provider = scripted(['{"city":"Oslo"}'])
    const runtime = new Runtime({ provider, model: 'm' })
    const typed = await publishedAndLater(runtime, () =>
      runtime.exec('city?', { output: z.object({ city: z.string() }) }),
    )
    expectUnchanged(typed)

    const failing = new Runtime({ provider: scripted([]), model: 'm' })
    expectUnchanged(await publishedAndLater(failing, () => failing.exec('hi')))

    wire.server.enqueue({ body: text('one ', 'two ', 'three'), chunkSize: 8, stallAfterBytes: 400 })
    const slow = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const aborted = await publishedAndLater(slow, async () => {
      const run = slow.exec('count')
      for await (const event of run) if (event.type === 'message_delta') run.abort()
      return run
    })
    expectUnchanged(aborted)
    expect(aborted.at(-1)?.event).toMatchObject({ type: 'agent_end', result: { status: 'aborted' } })
  })
})
