// @nestor/otel from the packed tarball: an exec with a tool call, traced by the OpenTelemetry SDK
// into an in-memory exporter.
import { Runtime, defineTool } from '@nestor/core'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers/testing'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'

const exporter = new InMemorySpanExporter()
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('smoke')
const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})
const provider = scripted([{ content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 3 } }] }, 'It is 5.'])
const runtime = new Runtime({ provider, model: 'test-model' })
const stop = instrument(runtime, { tracer, agentName: 'smoke' })
const result = await runtime.exec('2 + 3?', { tools: [add] })
stop()
const spans = exporter.getFinishedSpans()
const root = spans.find((s) => s.name.startsWith('invoke_agent'))
console.log(
  JSON.stringify({
    status: result.status,
    names: spans.map((s) => s.name).sort(),
    agentName: root?.attributes['gen_ai.agent.name'],
    children: spans.filter((s) => s.parentSpanContext?.spanId === root?.spanContext().spanId).length,
  }),
)
