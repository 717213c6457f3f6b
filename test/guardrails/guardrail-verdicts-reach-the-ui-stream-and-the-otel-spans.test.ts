import type { UIMessageChunk } from 'ai'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineGuardrail, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { toUIMessageStream } from '@nestor/web'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'
import { memoryTracing } from '../support/memory-tracing.js'
import { finalMessage } from '../support/ui-message.js'

const wire = useOpenAIWire()

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `sunny in ${city}`,
})
const onlyLisbon = defineGuardrail({
  name: 'only_lisbon',
  before: (call) => (call.arguments['city'] === 'Lisbon' ? { pass: true } : { reject: 'Lisbon only' }),
})
const noRain = defineGuardrail({
  name: 'no_rain',
  check: (answer) => (answer.includes('rain') ? { tripwire: true, reason: 'rain is bad news' } : undefined),
})

describe('guardrail verdicts leave the process', () => {
  it('as data-guardrail parts of the AI SDK UI stream and as nestor.guardrail events on the tool and agent spans', async () => {
    wire.server.enqueue(
      { body: toolCalls({ id: 'c1', name: 'weather', args: { city: 'Lisbon' } }) },
      { body: text('Expect rain.') },
    )
    const tracing = memoryTracing()
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const stop = instrument(runtime, { tracer: tracing.tracer })
    const run = runtime.exec('weather?', { tools: [weather], guardrails: { tools: [onlyLisbon], output: [noRain] } })
    const chunks: UIMessageChunk[] = []
    for await (const chunk of toUIMessageStream(run) as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk)
    stop()

    const parts = chunks.flatMap((c) => (c.type === 'data-guardrail' ? [c.data as Record<string, unknown>] : []))
    expect(parts.map((p) => [p['name'], p['kind'], p['verdict'], p['toolCallId'] ?? null])).toEqual([
      ['only_lisbon', 'tool', 'pass', 'c1'],
      ['no_rain', 'output', 'tripwire', null],
    ])
    expect(chunks.at(-2)).toMatchObject({ type: 'error', errorText: expect.stringMatching(/^guardrail_tripped: /) })
    // The AI SDK rethrows an error chunk: the parts before it are what the client keeps.
    const kept = chunks.filter((c) => c.type !== 'error')
    const message = await finalMessage(
      new ReadableStream({ start: (c) => (kept.forEach((x) => c.enqueue(structuredClone(x))), c.close()) }),
    )
    expect(message.parts.filter((p) => p.type === 'data-guardrail')).toHaveLength(2)

    const spans = tracing.spans()
    const tool = spans.find((s) => s.name === 'execute_tool weather')
    const agent = spans.find((s) => s.name.startsWith('invoke_agent'))
    const attrs = (span: typeof tool) =>
      span?.events.filter((e) => e.name === 'nestor.guardrail').map((e) => e.attributes) ?? []
    expect(attrs(tool)).toEqual([
      expect.objectContaining({
        'nestor.guardrail.name': 'only_lisbon',
        'nestor.guardrail.phase': 'before',
        'nestor.guardrail.verdict': 'pass',
      }),
    ])
    expect(attrs(agent)).toEqual([
      expect.objectContaining({
        'nestor.guardrail.name': 'no_rain',
        'nestor.guardrail.kind': 'output',
        'nestor.guardrail.verdict': 'tripwire',
        'nestor.guardrail.reason': 'rain is bad news',
      }),
    ])
    expect(tracing.openNames()).toEqual([])
  })
})
