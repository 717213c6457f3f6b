import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Runtime, type Message, type Provider } from '@nestor/core'
import { emptyUsage, type ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import type { MicroResult } from './time-per-op.js'

// Memory against history length: what one finished exec keeps alive (its event log and result)
// for histories of N prior messages. The history objects are the caller's and are allocated
// before measuring, so the numbers are Nestor's own retention. Linear growth shows as a flat
// "bytes per prior message" column.

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void

function history(n: number): Message[] {
  return Array.from({ length: n }, (_, i): Message =>
    i % 2 === 0
      ? { role: 'user', content: `question ${i}` }
      : {
          role: 'assistant',
          content: [{ type: 'text', text: `answer ${i}` }],
          stopReason: 'stop',
          usage: emptyUsage(),
          provider: 'p',
          model: 'm',
        },
  )
}

/** Answers 'ok' and keeps nothing (scripted() would keep a clone of every request). */
const answerOk: Provider = {
  name: 'bench-memory',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('bench-memory', request.model)
    yield builder.start()
    yield builder.text('ok')
    yield builder.done('stop')
  },
}

async function retainedPerExec(n: number, execs: number): Promise<number> {
  const prior = history(n)
  const runtime = new Runtime({ provider: answerOk, model: 'm', secrets: ['sk-bench-secret'] })
  await runtime.exec('warm', { history: prior })
  gc()
  const before = process.memoryUsage().heapUsed
  const kept: unknown[] = []
  for (let i = 0; i < execs; i++) {
    const run = runtime.exec('go', { history: prior })
    for await (const _ of run) void _
    kept.push(run, await run)
  }
  gc()
  const after = process.memoryUsage().heapUsed
  if (kept.length !== execs * 2) throw new Error('lost a run')
  return (after - before) / execs
}

/** Streams `deltas` 8-character text deltas in one turn and keeps nothing itself. */
const chatty = (deltas: number): Provider => ({
  name: 'bench-memory',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('bench-memory', request.model)
    yield builder.start()
    for (let i = 0; i < deltas; i++) yield builder.text('abcdefgh')
    yield builder.done('stop')
  },
})

type Consumer = 'result only' | 'for await'

/** Keeps the run under measure referenced through the GC (a local could be optimised away). */
const held: unknown[] = []

/**
 * Heap retained after GC by one exec that streamed `deltas` events, while its run object is still
 * referenced: what a caller holding the run pays per event. Flat across sizes means bounded.
 */
async function retainedByEvents(deltas: number, consumer: Consumer): Promise<number> {
  const runtime = new Runtime({ provider: chatty(deltas), model: 'm' })
  await runtime.exec('warm')
  gc()
  const before = process.memoryUsage().heapUsed
  const run = runtime.exec('go')
  held.push(run)
  if (consumer === 'for await') for await (const _ of run) void _
  const result = await run
  gc()
  const after = process.memoryUsage().heapUsed
  held.length = 0
  if (result.text.length !== deltas * 8) throw new Error('lost text')
  // Includes the run's history (the answer's 8 bytes per delta, O(history) by nature).
  return after - before
}

export async function eventMemoryMicro(): Promise<MicroResult[]> {
  const out: MicroResult[] = []
  for (const consumer of ['result only', 'for await'] as const) {
    for (const deltas of [1_000, 10_000, 100_000]) {
      const bytes = await retainedByEvents(deltas, consumer)
      out.push({
        name: `retained heap after an exec of ${deltas} events, ${consumer}`,
        perOp: `${(bytes / 1024).toFixed(0)} KiB`,
        note: `${(bytes / deltas).toFixed(1)} bytes per event (8 of them the answer's text), run still referenced; bounded = grows by the text only`,
      })
    }
  }
  return out
}

export async function memoryMicro(): Promise<MicroResult[]> {
  const out: MicroResult[] = [...(await eventMemoryMicro())]
  for (const n of [250, 500, 1000, 2000, 4000]) {
    const bytes = await retainedPerExec(n, 20)
    out.push({
      name: `retained heap per finished exec, history ${n}`,
      perOp: `${(bytes / 1024).toFixed(1)} KiB`,
      note: `${(bytes / n).toFixed(1)} bytes per prior message (flat = linear growth)`,
    })
  }
  return out
}
