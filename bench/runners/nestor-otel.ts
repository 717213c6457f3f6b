import type { Context } from '@opentelemetry/api'
import { instrument } from '@nestor/otel'
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'
import type { Outcome } from '../scenario.js'
import { createNestorRunner } from './nestor.js'
import type { Runner, Target, Workload } from './types.js'

// The nestor runner with @nestor/otel on: a real SDK tracer with the batch processor a production
// setup uses, exporting to nowhere (an exporter's network cost is the collector's, not ours). Only
// the tool workloads: the row exists to give tracing's overhead as a ratio against `nestor`.

/** Drops every batch: what is measured is span creation, attributes and batching. */
const discard: SpanExporter = {
  export: (_spans: ReadableSpan[], done) => done({ code: 0 }),
  shutdown: async () => {},
}

/**
 * The batch processor, counting started spans, so a run that traced nothing fails verification
 * instead of looking fast. A subclass, not a second processor: a second one would add the SDK's
 * fan-out to every span, which a production setup with one exporter does not pay.
 */
class CountingBatch extends BatchSpanProcessor {
  started = 0
  override onStart(span: Span, parent: Context): void {
    this.started++
    super.onStart(span, parent)
  }
}

export function createTracedNestorRunner(target: Target): Runner {
  const count = new CountingBatch(discard)
  const provider = new BasicTracerProvider({ spanProcessors: [count] })
  const inner = createNestorRunner(target, (runtime) => instrument(runtime, { tracer: provider.getTracer('bench') }))
  return {
    name: 'nestor+otel',
    supports: (w: Workload) => w.scenario.kind === 'tools',
    async run(workload: Workload): Promise<Outcome> {
      const before = count.started
      const outcome = await inner.run(workload)
      // One invoke_agent, a chat span per model call (T + 1) and an execute_tool span per call (T).
      const t = workload.scenario.kind === 'tools' ? workload.scenario.t : 0
      const spans = count.started - before
      if (spans !== 2 * t + 2) throw new Error(`[nestor+otel] expected ${2 * t + 2} spans, ${spans} started`)
      return outcome
    },
  }
}
