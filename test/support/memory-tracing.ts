import type { Context } from '@opentelemetry/api'
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base'

/** Counts spans started and not yet ended, so a test can assert that none is left open. */
class OpenSpans implements SpanProcessor {
  readonly open = new Set<Span>()
  onStart(span: Span, _parent: Context): void {
    this.open.add(span)
  }
  onEnd(span: ReadableSpan): void {
    this.open.delete(span as Span)
  }
  forceFlush = async () => {}
  shutdown = async () => {}
}

/** A real SDK tracer exporting to memory, with a check for spans still open. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter()
  const openSpans = new OpenSpans()
  const provider = new BasicTracerProvider({ spanProcessors: [openSpans, new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('nestor-test')
  return {
    tracer,
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** Names of the spans started and never ended. */
    openNames: (): string[] => [...openSpans.open].map((s) => s.name),
  }
}

export const idOf = (span: ReadableSpan): string => span.spanContext().spanId
export const parentIdOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId

/** The one span with this attribute value; throws when there is not exactly one. */
export function only(spans: ReadableSpan[], predicate: (s: ReadableSpan) => boolean): ReadableSpan {
  const found = spans.filter(predicate)
  if (found.length !== 1)
    throw new Error(`expected one span, found ${found.length}: ${found.map((s) => s.name).join(', ')}`)
  return found[0] as ReadableSpan
}

/** The span tree as indented names, children in start order: readable in a failing assertion. */
export function treeOf(spans: ReadableSpan[]): string[] {
  const ids = new Set(spans.map(idOf))
  const lines: string[] = []
  const walk = (parent: string | undefined, indent: string) => {
    const children = spans
      .filter((s) => (parent === undefined ? !ids.has(parentIdOf(s) ?? '') : parentIdOf(s) === parent))
      .sort(
        (a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1] || a.name.localeCompare(b.name),
      )
    for (const child of children) {
      lines.push(indent + child.name)
      walk(idOf(child), indent + '  ')
    }
  }
  walk(undefined, '')
  return lines
}
