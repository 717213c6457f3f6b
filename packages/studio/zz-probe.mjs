import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { studio } from '@nestor/studio'
import { z } from 'zod'
const step = defineTool({ name: 'step', description: 'One step', parameters: z.object({ n: z.number() }), execute: ({ n }) => `step ${n} done` })
const provider = scripted((request) => {
  const done = request.messages.filter((m) => m.role === 'toolResult').length
  return done < 399 ? { content: [{ type: 'toolCall', id: `call_${done}`, name: 'step', arguments: { n: done } }] } : 'all 400 turns done'
})
const runtime = new Runtime({ provider, model: 'scripted-long', maxIterations: 400 })
const served = await studio(runtime, { port: 0 })
const run = runtime.exec('Take 400 turns', { tools: [step] })
await run
for (let k = 0; k < 4; k++) {
  const t = performance.now()
  const res = await fetch(`${served.url}api/runs/${run.execId}/events`)
  let chunks = 0, bytes = 0
  for await (const c of res.body) { chunks++; bytes += c.length }
  console.log(`events: ${(performance.now() - t).toFixed(0)} ms, ${chunks} chunks, ${bytes} bytes`)
}
await served.close()
