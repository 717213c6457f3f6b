import { AsyncLocalStorage } from 'node:async_hooks'
import { performance } from 'node:perf_hooks'
import { Runtime, defineTool, exec, type Provider } from '@nestor/core'
import { type ModelEvent, type ModelRequest } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { z } from 'zod'
import type { MicroResult } from './time-per-op.js'
import { formatTime, timePerOp } from './time-per-op.js'

// Runtime micro-benchmarks over an in-memory provider (no HTTP, no SDK), so what is left is the
// loop itself: event stamping, logging, dispatch, frames.

export type Turn = { text: string[] } | { call: { name: string; args: Record<string, unknown> } }

/** A provider answering from a function of the request, through the same builder as real adapters. */
export function memoryProvider(decide: (request: ModelRequest) => Turn): Provider {
  let id = 0
  return {
    name: 'memory',
    async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
      const b = new AssistantBuilder('memory', request.model)
      yield b.start()
      const turn = decide(request)
      if ('text' in turn) for (const t of turn.text) yield b.text(t)
      else {
        yield b.toolCallStart(0, `call_m${id++}`, turn.call.name)
        yield b.toolCallDelta(0, JSON.stringify(turn.call.args))!
        yield b.toolCallEnd(0)!
      }
      yield b.done('stop')
    },
  }
}

const toolResults = (r: ModelRequest): number => r.messages.filter((m) => m.role === 'toolResult').length

async function dispatchMicro(): Promise<MicroResult[]> {
  const chunks = Array.from({ length: 2000 }, (_, i) => `tok${i} `)
  const provider = memoryProvider(() => ({ text: chunks }))
  const counts = [0, 1, 10, 100]
  const runtimes = counts.map((n) => {
    const runtime = new Runtime({ provider, model: 'm' })
    for (let i = 0; i < n; i++) runtime.on('*', () => undefined)
    return runtime
  })
  const events = 2000 + 8
  const once = async (runtime: Runtime): Promise<void> => {
    for await (const _ of runtime.exec('go', { tools: [] })) void _
  }
  // Passes alternate between subscriber counts, so JIT warm-up and machine noise hit each alike.
  const best = counts.map(() => Infinity)
  for (let pass = 0; pass < 3; pass++) {
    for (let i = 0; i < counts.length; i++)
      best[i] = Math.min(best[i]!, await timePerOp(() => once(runtimes[i]!), events, 3))
  }
  const base = best[0]!
  return counts.map((n, i) => ({
    name: `event dispatch, runtime.on('*') × ${n}`,
    perOp: formatTime(best[i]!),
    note:
      n === 0
        ? `per event of a 2000-delta exec, stream consumed (${events} events), no subscriber`
        : `≈ ${formatTime(Math.max(0, best[i]! - base) / n)} per subscriber per event`,
  }))
}

async function frameMicro(): Promise<MicroResult[]> {
  const k = 50
  // Root exec: k tool turns, then text. Each tool body opens a one-turn child and times only that
  // exec() call, so the nested cost is measured directly, not as a difference of two noisy totals.
  const provider = memoryProvider((r) => {
    const first = r.messages[0]?.content
    if (typeof first === 'string' && first.startsWith('child')) return { text: ['done'] }
    const n = toolResults(r)
    return n < k ? { call: { name: 'hop', args: { i: n } } } : { text: ['end'] }
  })
  const runtime = new Runtime({ provider, model: 'm', maxIterations: k + 1 })
  let spent = 0
  const nesting = defineTool({
    name: 'hop',
    description: 'opens a child exec',
    parameters: z.object({ i: z.number() }),
    execute: async () => {
      const start = performance.now()
      const child = await exec('child', { tools: [] })
      spent += performance.now() - start
      return child.text
    },
  })
  const rootText = new Runtime({ provider, model: 'm' })
  let perNested = Infinity
  let perRoot = Infinity
  for (let pass = 0; pass < 8; pass++) {
    spent = 0
    await runtime.exec('root', { tools: [nesting] }).result
    if (pass > 1) perNested = Math.min(perNested, spent / k)
    const start = performance.now()
    for (let i = 0; i < k; i++) await rootText.exec('child', { tools: [] }).result
    if (pass > 1) perRoot = Math.min(perRoot, (performance.now() - start) / k)
  }
  const als = new AsyncLocalStorage<{ depth: number }>()
  const perAls = await timePerOp(
    async () => {
      for (let i = 0; i < 10_000; i++) await als.run({ depth: 1 }, async () => als.getStore()?.depth)
    },
    10_000,
    5,
  )
  return [
    {
      name: 'nested exec (one-turn child opened in a tool body)',
      perOp: formatTime(perNested),
      note: `best of 6 passes × ${k} children`,
    },
    {
      name: 'the same one-turn exec at the root',
      perOp: formatTime(perRoot),
      note: `difference ≈ frame + parent plumbing: ${formatTime(perNested - perRoot)} per nested exec`,
    },
    {
      name: 'raw AsyncLocalStorage.run + await',
      perOp: formatTime(perAls),
      note: 'node:async_hooks floor for one frame',
    },
  ]
}

export async function runtimeMicro(): Promise<MicroResult[]> {
  return [...(await dispatchMicro()), ...(await frameMicro())]
}
