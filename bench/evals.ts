import { fileURLToPath } from 'node:url'
import { Runtime, defineTool, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { evaluate, scorers } from '@nestor/evals'
import { z } from 'zod'
import { median, quantile } from './stats.js'

// What the eval harness adds over running the same execs directly (docs/evals.md): N scripted
// cases (a tool call, then an answer), run one at a time by `evaluate` (events read into the exec
// tree, one scorer, the report) and by a plain loop awaiting each exec with a signal, as the task
// does. Two regimes: `cpu` (the scripted model answers at once; CPU time of the process: the
// harness's own work against the cheapest exec there is) and `latency` (the scripted model waits
// `delayMs` before each streamed delta, as any model does; wall time). Rounds alternate the two
// sides; the result is the median of the per-round ratios (goal <= 2 % in the latency regime).

export type EvalsBenchReport = {
  regime: 'cpu' | 'latency'
  direct: number
  harness: number
  overhead: number
  /** p25 and p75 of the per-round ratios. */
  spread: [number, number]
  cases: number
  modelCalls: number
}

function agent(delayMs: number) {
  const counts = { model: 0 }
  const provider = scripted(
    (request) => {
      counts.model++
      const result = request.messages.find((m: Message) => m.role === 'toolResult')
      const city = String(request.messages[0]?.content ?? '')
      if (!result) return { content: [{ type: 'toolCall', id: 'call_1', name: 'lookup', arguments: { city } }] }
      return `Trip to ${city}: sunny`
    },
    { delayMs },
  )
  const lookup = defineTool({
    name: 'lookup',
    description: 'Facts about a city',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => `${city} is sunny`,
  })
  return { runtime: new Runtime({ provider, model: 'scripted' }), tools: [lookup], counts }
}

export async function evalsBench(cases = 200, rounds = 21, delayMs = 0): Promise<EvalsBenchReport> {
  const { runtime, tools, counts } = agent(delayMs)
  const data = Array.from({ length: cases }, (_, i) => ({ id: `c${i}`, input: `City ${i}`, expected: 'sunny' }))
  const direct = async () => {
    for (const c of data) {
      const result = await runtime.exec(c.input, { tools, signal: new AbortController().signal })
      if (!result.text.includes('sunny')) throw new Error(`case ${c.id} did not answer`)
    }
  }
  const harness = async () => {
    const report = await evaluate({
      name: 'bench',
      data,
      concurrency: 1,
      task: (input, ctx) => runtime.exec(input as string, { tools, signal: ctx.signal }),
      scorers: [scorers.includes()],
    })
    if (report.scorers.includes!.mean !== 1 || report.cases.length !== cases) throw new Error('the harness lost a case')
  }
  // Without latency, CPU time of this process (user + system): on a shared machine it moves far
  // less with the load than wall time, and the harness's cost is CPU work. With latency, wall time.
  const time = async (fn: () => Promise<void>) => {
    if (delayMs > 0) {
      const start = performance.now()
      await fn()
      return performance.now() - start
    }
    const start = process.cpuUsage()
    await fn()
    const used = process.cpuUsage(start)
    return (used.user + used.system) / 1000
  }
  // Warm-up: both paths compiled and the runtime's caches filled before anything counts.
  await direct()
  await harness()
  counts.model = 0
  const ratios: number[] = []
  const directs: number[] = []
  const harnesses: number[] = []
  for (let r = 0; r < rounds; r++) {
    // Alternate which side goes first, so neither always runs on a warmer heap.
    let d: number
    let h: number
    if (r % 2) {
      h = await time(harness)
      d = await time(direct)
    } else {
      d = await time(direct)
      h = await time(harness)
    }
    directs.push(d)
    harnesses.push(h)
    ratios.push(h / d - 1)
  }
  return {
    regime: delayMs > 0 ? 'latency' : 'cpu',
    direct: median(directs),
    harness: median(harnesses),
    overhead: median(ratios),
    spread: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    cases,
    modelCalls: counts.model,
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const cases = Number(process.env.BENCH_EVAL_CASES ?? 200)
  const rounds = Number(process.env.BENCH_EVAL_ROUNDS ?? 21)
  const ms = (x: number) => `${x.toFixed(1)} ms`
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`
  const line = (r: EvalsBenchReport, what: string) =>
    `eval harness, ${r.cases} scripted cases (one tool call each), ${what}: direct ${ms(r.direct)}, evaluate ${ms(r.harness)}: overhead ${pct(r.overhead)} (p25-p75 ${pct(r.spread[0])} to ${pct(r.spread[1])}; ${(((r.harness - r.direct) / r.cases) * 1000).toFixed(0)} µs a case)`
  const cpu = await evalsBench(cases, rounds, 0)
  console.log(line(cpu, 'no model latency, CPU time'))
  const latency = await evalsBench(cases, Math.ceil(rounds / 3), 1)
  console.log(line(latency, '1 ms before each streamed delta, wall time'))
  process.exitCode = latency.overhead <= 0.02 ? 0 : 1
}
