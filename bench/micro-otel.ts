import { Runtime, defineTool } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { INVALID_SPAN_CONTEXT, SpanKind, context, trace, type Tracer } from '@opentelemetry/api'
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'
import { z } from 'zod'
import type { MicroResult } from './time-per-op.js'
import { formatTime, timePerOp } from './time-per-op.js'

// What @nestor/otel adds per span, in-process (no HTTP, no SDK client): the same 10-tool-turn
// exec on two runtimes, one instrumented with a real SDK tracer, timed in alternating passes.
// Split in two: the same exec instrumented on a tracer whose spans record nothing is Nestor's own
// share (listener dispatch, handlers, attribute objects); the same 22 spans made directly on the
// SDK are the SDK's share, which any instrumentation pays.

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
  const bare = make()
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] })
  const tracer = provider.getTracer('bench')
  instrument(on, { tracer })
  instrument(bare, { tracer: recordsNothing })
  const once = async (runtime: Runtime) => {
    for await (const _ of runtime.exec('go', { tools: [echo] })) void _
  }
  let bestOff = Infinity
  let bestOn = Infinity
  let bestSdk = Infinity
  let bestBare = Infinity
  for (let pass = 0; pass < 4; pass++) {
    bestOff = Math.min(bestOff, await timePerOp(() => once(off), 1, 5))
    bestOn = Math.min(bestOn, await timePerOp(() => once(on), 1, 5))
    bestBare = Math.min(bestBare, await timePerOp(() => once(bare), 1, 5))
  }
  // After the passes, so these calls do not warm the SDK up for the traced exec above.
  for (let pass = 0; pass < 4; pass++) bestSdk = Math.min(bestSdk, await timePerOp(() => sdkAlone(tracer), 1, 5))
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
    {
      name: 'instrument() on a tracer that records nothing: per span',
      perOp: formatTime(Math.max(0, bestBare - bestOff) / spans),
      note: "Nestor's own share of the row above: listener dispatch, handlers, attribute objects, no SDK",
    },
    {
      name: 'OpenTelemetry SDK alone: per span',
      perOp: formatTime(bestSdk / spans),
      note: `the same ${spans} spans and attributes made directly on the tracer after those passes: the SDK's own share of the row above`,
    },
  ]
}

let sdkRun = 0

/** The API's non-recording span for every span: what instrument() costs with no SDK behind it. */
const nothing = trace.wrapSpanContext(INVALID_SPAN_CONTEXT)
const recordsNothing: Tracer = {
  startSpan: () => nothing,
  startActiveSpan: () => {
    throw new Error('not used by instrument()')
  },
}

/** The spans instrument() makes for one 10-tool-turn exec, in the same order, with no Nestor in between. */
function sdkAlone(tracer: Tracer): void {
  const run = sdkRun++
  const root = tracer.startSpan(
    'invoke_agent',
    {
      kind: SpanKind.INTERNAL,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'nestor.exec.id': `exec_${run}`, 'nestor.depth': 0 },
    },
    context.active(),
  )
  const parent = trace.setSpan(context.active(), root)
  for (let i = 0; i <= T; i++) {
    const chat = tracer.startSpan(
      'chat',
      { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': 'chat', 'nestor.turn.iteration': i + 1 } },
      parent,
    )
    chat.updateName('chat m')
    chat.setAttribute('gen_ai.provider.name', 'scripted')
    chat.setAttribute('gen_ai.request.model', 'm')
    if (i === 0) {
      root.setAttribute('gen_ai.provider.name', 'scripted')
      root.setAttribute('gen_ai.request.model', 'm')
    }
    chat.setAttribute('gen_ai.response.finish_reasons', [i < T ? 'tool_call' : 'stop'])
    chat.setAttribute('gen_ai.usage.input_tokens', 10)
    chat.setAttribute('gen_ai.usage.output_tokens', 5)
    chat.end()
    if (i === T) break
    const tool = tracer.startSpan(
      'execute_tool echo',
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'echo',
          'gen_ai.tool.call.id': `call_${run}_${i}`,
        },
      },
      parent,
    )
    tool.setAttribute('nestor.receipt.status', 'ok')
    tool.end()
  }
  root.setAttribute('nestor.exec.status', 'completed')
  root.setAttribute('nestor.exec.iterations', T + 1)
  root.setAttribute('gen_ai.usage.input_tokens', 110)
  root.setAttribute('gen_ai.usage.output_tokens', 55)
  root.end()
}
