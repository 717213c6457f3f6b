import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Runtime, defineTool, type Provider, type RunState } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { z } from 'zod'

// Memory of the default claimState store: the heap after 100,000 resumes (each claims one state),
// when the states live an hour (every claim is kept) and when they expire as fast as they come
// (claims are dropped). `tsc -b && node bench/dist/claims.js`; results in bench/README.md.

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void
const CLAIMS = Number(process.env['CLAIMS'] ?? 100_000)

/** Answers with one call to `wait` (which needs approval) first, then 'ok'. Keeps nothing. */
const provider: Provider = {
  name: 'bench-claims',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('bench-claims', request.model)
    yield builder.start()
    if (request.messages.length === 1) {
      for (const event of [builder.toolCallStart(0, 'w1', 'wait'), builder.toolCallEnd(0)]) if (event) yield event
      yield builder.done('toolUse')
    } else {
      yield builder.text('ok')
      yield builder.done('stop')
    }
  },
}
const tools = [
  defineTool({
    name: 'wait',
    description: 'Waits for a person',
    parameters: z.object({}),
    needsApproval: true,
    execute: () => 'done',
  }),
]

async function heapAfterClaims(liveMs: number): Promise<{ mb: number; msPerResume: number }> {
  // Finished runs are not kept, so the heap left is the claims'.
  const runtime = new Runtime({ provider, model: 'm', retention: { maxFinishedRuns: 0 } })
  const paused = await runtime.exec('go', { tools })
  const template = paused.pending?.state as RunState
  gc()
  const before = process.memoryUsage().heapUsed
  const started = performance.now()
  for (let i = 0; i < CLAIMS; i++) {
    const state: RunState = { ...template, stateId: `bench-${liveMs}-${i}`, expiresAt: Date.now() + liveMs }
    const result = await runtime.resume(state, { reject: [{ toolCallId: 'w1' }] }, { tools })
    if (result.status !== 'completed') throw new Error(`resume ${i}: ${result.status}`)
  }
  const msPerResume = (performance.now() - started) / CLAIMS
  gc()
  return { mb: (process.memoryUsage().heapUsed - before) / 2 ** 20, msPerResume }
}

// Expiring states first: the store's sweep is sized by what it holds, and kept claims would stay.
const dropped = await heapAfterClaims(200)
const kept = await heapAfterClaims(3_600_000)
console.log(
  JSON.stringify({
    claims: CLAIMS,
    keptMb: Number(kept.mb.toFixed(1)),
    bytesPerKeptClaim: Math.round((kept.mb * 2 ** 20) / CLAIMS),
    droppedMb: Number(dropped.mb.toFixed(1)),
    msPerResume: Number(kept.msPerResume.toFixed(3)),
  }),
)
