import { Runtime, defineTool } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/provider-kit'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'
import type { MicroResult } from './micro.js'
import { formatTime, timePerOp } from './micro.js'

// What @nestor/otel adds per span, in-process (no HTTP, no SDK client): the same 10-tool-turn
// exec on two runtimes, one instrumented with a real SDK tracer, timed in alternating passes.

const T = 10
const discard: SpanExporter = { export: (_spans: ReadableSpan[], done) => done({ code: 0 }), shutdown: async () => {} }

export async function otelMicro(): Promise<MicroResult[]> {
  const echo = defineTool({
    name: 'echo',
    description: 'echoes',
    parameters: z.object({ i: z.number() }),
    execute: ({ i }) => String(i),
  })
  const decide = (r: ModelRequest) => {
    const n = r.messages.filter((m) => m.role === 'toolResult').length
    return n < T ? { content: [{ type: 'toolCall' as const, name: 'echo', arguments: { i: n } }] } : 'done'
  }
  const make = () => new Runtime({ provider: scripted(decide), model: 'm', maxIterations: T + 1 })
  const off = make()
  const on = make()
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] })
  instrument(on, { tracer: provider.getTracer('bench') })
  const once = async (runtime: Runtime) => {
    for await (const _ of runtime.exec('go', { tools: [echo] })) void _
  }
  let bestOff = Infinity
  let bestOn = Infinity
  for (let pass = 0; pass < 4; pass++) {
    bestOff = Math.min(bestOff, await timePerOp(() => once(off), 1, 5))
    bestOn = Math.min(bestOn, await timePerOp(() => once(on), 1, 5))
  }
  await provider.shutdown()
  const spans = 2 * T + 2
  return [
    {
      name: `instrument(): ${T}-tool-turn exec, in-process`,
      perOp: formatTime(bestOn),
      note: `${formatTime(bestOff)} untraced: ${(((bestOn - bestOff) / bestOff) * 100).toFixed(0)} % more with no HTTP or SDK client to dilute it`,
    },
    {
      name: 'instrument(): per span',
      perOp: formatTime(Math.max(0, bestOn - bestOff) / spans),
      note: `${spans} spans per exec (SDK tracer, batch processor, discarding exporter)`,
    },
  ]
}
