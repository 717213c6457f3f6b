import { AsyncLocalStorage } from 'node:async_hooks'
import { Runtime, defineTool, exec, type ModelEvent, type ModelRequest, type Provider } from '@nestor/core'
import { AssistantBuilder } from '@nestor/providers'
import { z } from 'zod'
import type { MicroResult } from './micro.js'
import { formatTime, timePerOp } from './micro.js'

// Runtime micro-benchmarks over an in-memory provider (no HTTP, no SDK), so what is left is the
// loop itself: event stamping, logging, dispatch, frames.

type Turn = { text: string[] } | { call: { name: string; args: Record<string, unknown> } }

/** A provider answering from a function of the request, through the same builder as real adapters. */
function memoryProvider(decide: (request: ModelRequest) => Turn): Provider {
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
  const out: MicroResult[] = []
  let base = 0
  for (const n of [0, 1, 10, 100]) {
    const runtime = new Runtime({ provider, model: 'm' })
    let seen = 0
    for (let i = 0; i < n; i++) runtime.on('*', () => void seen++)
    let events = 0
    const perEvent = await timePerOp(async () => {
      const run = runtime.exec('go', { tools: [] })
      events = 0
      for await (const _ of run) events++
    }, 2000 + 8, 5)
    if (n === 0) base = perEvent
    out.push({
      name: `event dispatch, runtime.on('*') × ${n}`,
      perOp: formatTime(perEvent),
      note: n === 0 ? `per event of a 2000-delta exec, stream consumed (${events} events); baseline` : `+${formatTime((perEvent - base) / n)} per subscriber per event`,
    })
  }
  return out
}

async function frameMicro(): Promise<MicroResult[]> {
  const k = 50
  // Root exec: k tool turns, then text. The tool body either returns at once or opens a child.
  const provider = memoryProvider((r) => {
    const isChild = typeof r.messages[0]?.content === 'string' && r.messages[0].content.startsWith('child')
    if (isChild) return { text: ['done'] }
    const n = toolResults(r)
    return n < k ? { call: { name: 'hop', args: { i: n } } } : { text: ['end'] }
  })
  const runtime = new Runtime({ provider, model: 'm', maxIterations: k + 1 })
  const plain = defineTool({ name: 'hop', description: 'no-op', parameters: z.object({ i: z.number() }), execute: async () => 'ok' })
  const nesting = defineTool({
    name: 'hop',
    description: 'opens a child exec',
    parameters: z.object({ i: z.number() }),
    execute: async () => (await exec('child', { tools: [] })).text,
  })
  const perPlainCall = await timePerOp(() => runtime.exec('root', { tools: [plain] }).result, k, 5)
  const perNestedCall = await timePerOp(() => runtime.exec('root', { tools: [nesting] }).result, k, 5)
  const rootText = new Runtime({ provider: memoryProvider(() => ({ text: ['done'] })), model: 'm' })
  const perRootExec = await timePerOp(async () => {
    for (let i = 0; i < k; i++) await rootText.exec('child', { tools: [] }).result
  }, k, 5)
  const als = new AsyncLocalStorage<{ depth: number }>()
  const perAls = await timePerOp(async () => {
    for (let i = 0; i < 10_000; i++) await als.run({ depth: 1 }, async () => als.getStore()?.depth)
  }, 10_000, 5)
  const nestedExec = perNestedCall - perPlainCall
  return [
    { name: 'nested exec (child opened in a tool body)', perOp: formatTime(nestedExec), note: `one-turn child, ${k} per root exec; tool call without a child: ${formatTime(perPlainCall)}` },
    { name: 'same one-turn exec at the root', perOp: formatTime(perRootExec), note: `so frame + parent plumbing ≈ ${formatTime(nestedExec - perRootExec)} per nested exec` },
    { name: 'raw AsyncLocalStorage.run + await', perOp: formatTime(perAls), note: 'node:async_hooks floor for one frame' },
  ]
}

export async function runtimeMicro(): Promise<MicroResult[]> {
  return [...(await dispatchMicro()), ...(await frameMicro())]
}
