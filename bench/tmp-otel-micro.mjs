import { Runtime, defineTool } from '/work/wt-h17otel/packages/core/dist/index.js'
import { scripted } from '/work/wt-h17otel/packages/providers/dist/index.js'
import { instrument } from '/work/wt-h17otel/packages/otel/dist/index.js'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { performance } from 'node:perf_hooks'
const discard = { export: (s, done) => done({ code: 0 }), shutdown: async () => {} }
const echo = defineTool({
  name: 'echo',
  description: 'd',
  parameters: { type: 'object', properties: { i: { type: 'number' } } },
  execute: async ({ i }) => String(i),
})
const make = () =>
  new Runtime({
    provider: scripted(
      (r) => {
        const n = r.messages.filter((m) => m.role === 'toolResult').length
        return n < 10 ? { content: [{ type: 'toolCall', name: 'echo', arguments: { i: n } }] } : 'x'.repeat(200)
      },
      { chunkSize: 4 },
    ),
    model: 'm',
    maxIterations: 12,
  })
const off = make(),
  on = make()
const tp = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(discard)] })
instrument(on, { tracer: tp.getTracer('x') })
const once = async (rt) => {
  for await (const _ of rt.exec('go', { tools: [echo] })) {
  }
}
const time = async (rt, n) => {
  const t = performance.now()
  for (let i = 0; i < n; i++) await once(rt)
  return (performance.now() - t) / n
}
for (let i = 0; i < 50; i++) {
  await once(off)
  await once(on)
}
let a = Infinity,
  b = Infinity
for (let p = 0; p < 10; p++) {
  a = Math.min(a, await time(off, 30))
  b = Math.min(b, await time(on, 30))
}
console.log(
  'off',
  a.toFixed(3),
  'ms  on',
  b.toFixed(3),
  'ms  ratio',
  (b / a).toFixed(3),
  'per span µs',
  (((b - a) / 22) * 1000).toFixed(1),
)
