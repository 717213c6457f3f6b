import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { fileURLToPath } from 'node:url'
import {
  Runtime,
  defineTool,
  type AssistantMessage,
  type ContextOptions,
  type Message,
  type Provider,
} from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { z } from 'zod'
// The loop's window check itself, from core's compiled modules (not a public entry): timed alone,
// it is not lost in the noise of a whole turn.
// Relative to bench/dist/ when compiled, to bench/ when a test imports the source.
const fromRoot = import.meta.url.includes('/bench/dist/') ? '../../' : '../'
const fitUrl = new URL(`${fromRoot}packages/core/dist/context/fit.js`, import.meta.url)
const { fitWindow } = (await import(fitUrl.href)) as {
  fitWindow: (ctx: never, iteration: number) => Promise<void>
}
import { formatTime, timePerOp, type MicroResult } from './time-per-op.js'

// The long-run workload of issue 32 (docs/context.md "Measured"): 400 tool turns whose results
// are 2 kB each, over an in-memory model that reports its input tokens, with context off and with
// `context: { maxTokens, strategy: 'truncate' }`. Three figures: what the estimate and the
// compaction decision cost per turn (fitWindow timed alone over a growing 400-turn history, and
// the two whole runs), and the heap after N turns with context on and off. In `pnpm bench`'s
// micro table; `pnpm bench:context` runs it alone.

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void

const TURNS = Number(process.env.BENCH_CONTEXT_TURNS ?? 400)
/** A fresh 2 kB string per result, as a real tool returns (one shared string would hide retention). */
const result = (n: number): string => `page ${n} `.padEnd(2048, 'x')
const WINDOW = 16_000
const TRUNCATE: ContextOptions = { maxTokens: WINDOW, strategy: 'truncate' }

/** Calls `read` until `turns` results are in, then answers; reports input tokens as a provider does. */
function longRunModel(turns: number): Provider {
  return {
    name: 'bench-context',
    async *stream(request): AsyncGenerator<ModelEvent> {
      const b = new AssistantBuilder('bench-context', request.model)
      yield b.start()
      const last = request.messages.at(-1)
      const done = last?.role === 'toolResult' && last.toolCallId === `call_${turns}`
      const n = last?.role === 'toolResult' ? Number(last.toolCallId.slice(5)) + 1 : 1
      if (done) yield b.text('done')
      else {
        yield b.toolCallStart(0, `call_${n}`, 'read')
        yield b.toolCallDelta(0, `{"n":${n}}`)!
        yield b.toolCallEnd(0)!
      }
      // About what a tokenizer would say: a 2 kB result is ~520 tokens with its call.
      b.setUsage({ input: 20 + request.messages.length * 260, output: 10 })
      yield b.done(done ? 'stop' : 'toolUse')
    },
  }
}

const readTool = (onTurn?: (n: number) => void) =>
  defineTool({
    name: 'read',
    description: 'Reads one page',
    parameters: z.object({ n: z.number().int() }),
    execute: ({ n }) => (onTurn?.(n), result(n)),
  })

async function longRun(
  context: ContextOptions | undefined,
  onTurn?: (n: number) => void,
  replayWindow?: number,
): Promise<number> {
  const runtime = new Runtime({
    provider: longRunModel(TURNS),
    model: 'm',
    maxIterations: TURNS + 1,
    ...(replayWindow === undefined ? {} : { retention: { replayWindow } }),
  })
  const run = runtime.exec('Read every page.', { tools: [readTool(onTurn)], ...(context ? { context } : {}) })
  let compactions = 0
  for await (const event of run) if (event.type === 'context_compacted') compactions++
  const result = await run
  if (result.status !== 'completed' || result.receipts.length !== TURNS) throw new Error(`long run ${result.status}`)
  if (context && compactions === 0) throw new Error('the context run never compacted')
  return compactions
}

const assistantCall = (n: number, input: number): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'toolCall', id: `call_${n}`, name: 'read', arguments: { n } }],
  stopReason: 'toolUse',
  usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, total: input + 10 },
  provider: 'bench-context',
  model: 'm',
})
const resultOf = (n: number): Message => ({
  role: 'toolResult',
  toolCallId: `call_${n}`,
  toolName: 'read',
  content: [{ type: 'text', text: result(n) }],
  isError: false,
})

/**
 * fitWindow before each of `turns` turns of a growing history (a window it always fits, so every
 * call is the estimate and the decision), minus the same loop without it: per turn.
 */
async function decisionPerTurn(reported: boolean): Promise<number> {
  const once = async (check: boolean) => {
    const history: Message[] = [{ role: 'user', content: 'Read every page.' }]
    const ctx = {
      env: { context: { maxTokens: 100_000_000 }, provider: { name: 'bench' }, model: 'm', system: 'You read.' },
      tools: { specs: [{ name: 'read', description: 'Reads one page', parameters: { type: 'object' } }] },
      state: { history, startIndex: 0 },
      window: { trustedFrom: 0 },
    }
    for (let n = 1; n <= TURNS; n++) {
      history.push(assistantCall(n, reported ? 20 + history.length * 260 : 0), resultOf(n))
      if (check) await fitWindow(ctx as never, n)
    }
  }
  const best = [Infinity, Infinity]
  for (let pass = 0; pass < 3; pass++) {
    best[0] = Math.min(best[0]!, await timePerOp(() => once(true), TURNS, 5))
    best[1] = Math.min(best[1]!, await timePerOp(() => once(false), TURNS, 5))
  }
  return Math.max(0, best[0]! - best[1]!)
}

/** Heap after GC at turns 100, 200, … of one run (the tool body samples it), in KiB. */
async function heapByTurn(context: ContextOptions | undefined, replayWindow?: number): Promise<number[]> {
  const samples: number[] = []
  const sample = (n: number) => {
    if (n % 100 !== 0) return
    gc()
    samples.push(process.memoryUsage().heapUsed / 1024)
  }
  await longRun(context, sample, replayWindow)
  return samples
}

export async function contextBench(): Promise<MicroResult[]> {
  const out: MicroResult[] = []
  for (const reported of [true, false]) {
    const perTurn = await decisionPerTurn(reported)
    out.push({
      name: `context: estimate + compaction decision per turn, ${TURNS}-turn history, ${reported ? 'usage reported' : 'no usage reported'}`,
      perOp: formatTime(perTurn),
      note: reported
        ? 'fitWindow before each turn, minus the same loop without it (goal <= 0.05 ms)'
        : 'a model that reports no usage: the whole history is summed each turn (each message estimated once)',
    })
  }
  await longRun(undefined)
  await longRun(TRUNCATE)
  let compactions = 0
  const best = { off: Infinity, on: Infinity }
  for (let pass = 0; pass < 3; pass++) {
    best.off = Math.min(best.off, await timePerOp(() => longRun(undefined), 1, 3))
    best.on = Math.min(best.on, await timePerOp(async () => void (compactions = await longRun(TRUNCATE)), 1, 3))
  }
  out.push({
    name: `context: long run, ${TURNS} turns × 2 kB results, context off`,
    perOp: formatTime(best.off),
    note: `${formatTime(best.off / TURNS)} per turn; the baseline`,
  })
  out.push({
    name: `context: long run, ${TURNS} turns × 2 kB results, truncate to ${WINDOW}`,
    perOp: formatTime(best.on),
    note: `${(best.on / best.off).toFixed(2)}× the baseline (${best.on >= best.off ? '+' : '−'}${formatTime(Math.abs(best.on - best.off) / TURNS)} per turn), ${compactions} compactions; the history it sends stays under the window`,
  })
  // The run keeps its latest events for late readers (retention.replayWindow, 5000 by default),
  // tool results included: measured with the default and with a window of 100 events.
  for (const replayWindow of [undefined, 100])
    for (const [label, context] of [
      ['off', undefined],
      ['on', TRUNCATE],
    ] as const) {
      const heap = await heapByTurn(context, replayWindow)
      const first = heap[0] ?? 0
      out.push({
        name: `context: heap growth, turn 100 → ${TURNS}, context ${label}, replayWindow ${replayWindow ?? '5000 (default)'}`,
        perOp: `${(heap.at(-1)! - first).toFixed(0)} KiB`,
        note: `at turns 100 / 200 / …: ${heap.map((kib) => (kib - first).toFixed(0)).join(' / ')} KiB`,
      })
    }
  return out
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now()
  const rows = await contextBench()
  console.log(
    `Node ${process.version}, warm, in process; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  )
  console.log('| measure | time / size | note |\n|---|---:|---|')
  for (const r of rows) console.log(`| ${r.name} | ${r.perOp} | ${r.note} |`)
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`)
}
