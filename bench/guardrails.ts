import { fileURLToPath } from 'node:url'
import { cpus, loadavg } from 'node:os'
import { Runtime, defineGuardrail, defineTool, type GuardrailOptions } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { formatTime } from './time-per-op.js'
import { fmt } from './stats.js'

// What guardrails cost the loop (docs/guardrails.md): the same exec (a tool turn, then a text
// turn, over an in-memory scripted model) with no guardrails and with two pass-through function
// guardrails, warm, passes interleaved so JIT warm-up and machine noise hit each alike; a ratio
// measured in one process. Goal: ≤ 1.02×.

const EXECS = 40

export type GuardrailsBench = {
  /** `checks`: how many checks the configuration's guardrails ran (a bench that checks nothing measures nothing). */
  rows: { name: string; ms: number; checks: number }[]
  rounds: number
  load: number
  cores: number
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})
const checks = [0, 0, 0]
const passing = (config: number) => () => {
  checks[config]!++
  return { pass: true as const }
}
const CONFIGS: { name: string; guardrails?: GuardrailOptions }[] = [
  { name: 'no guardrails' },
  {
    name: 'input + output guardrail',
    guardrails: {
      input: [defineGuardrail({ name: 'in', check: passing(1) })],
      output: [defineGuardrail({ name: 'out', check: passing(1) })],
    },
  },
  {
    name: 'two tool guardrails (before + after)',
    guardrails: {
      tools: [
        defineGuardrail({ name: 'before', before: passing(2) }),
        defineGuardrail({ name: 'after', after: passing(2) }),
      ],
    },
  },
]

export async function runGuardrailsBench(rounds = Number(process.env.BENCH_GUARDRAIL_ROUNDS ?? 80)) {
  const model = scripted((request) =>
    request.messages.some((m) => m.role === 'toolResult')
      ? 'done'
      : { content: [{ type: 'toolCall', name: 'echo', arguments: { text: 'hi' } }] },
  )
  const runtime = new Runtime({ provider: model, model: 'm' })
  const batch = async (guardrails: GuardrailOptions | undefined) => {
    // CPU time, not wall time: on a shared machine the wait for a core is not this code's cost.
    const started = process.cpuUsage()
    for (let i = 0; i < EXECS; i++) {
      const result = await runtime.exec('go', { tools: [echo], ...(guardrails && { guardrails }) })
      if (result.status !== 'completed') throw new Error(`bench exec ended ${result.status}`)
    }
    const used = process.cpuUsage(started)
    return (used.user + used.system) / 1000 / EXECS
  }
  // Warm-up, then one batch of each configuration per round, in turn: a disturbance of the
  // shared machine lands on one sample, and the best sample of each is compared.
  for (const config of CONFIGS) for (let i = 0; i < 3; i++) await batch(config.guardrails)
  const best = CONFIGS.map(() => Infinity)
  for (let r = 0; r < rounds; r++)
    for (const [i, config] of CONFIGS.entries()) best[i] = Math.min(best[i] as number, await batch(config.guardrails))
  const rows = CONFIGS.map((c, i) => ({ name: c.name, ms: best[i] as number, checks: checks[i] as number }))
  return { rows, rounds, load: loadavg()[0] ?? 0, cores: cpus().length } satisfies GuardrailsBench
}

export function renderGuardrailsBench({ rows, rounds, load, cores }: GuardrailsBench): string {
  const base = rows[0]?.ms ?? NaN
  const out = ['### Guardrails: what pass-through checks add to an exec', '']
  out.push(
    '| exec (tool turn + text turn, scripted model) | regime | CPU per exec | vs none | goal |',
    '|---|---|---:|---:|---|',
  )
  for (const [i, r] of rows.entries())
    out.push(
      `| ${r.name} | warm, in-process, CPU time, best of ${rounds} interleaved batches of ${EXECS} | ${formatTime(r.ms)} | ${i === 0 ? '1.00×' : `${fmt(r.ms / base, 3)}×`} | ${i === 0 ? 'baseline' : '≤ 1.02×'} |`,
    )
  out.push('', `Machine load (1 min) ${fmt(load, 2)} on ${cores} cores when measured.`, '')
  return out.join('\n')
}

// `node bench/dist/guardrails.js` (`pnpm bench:guardrails`) runs this part of the bench alone.
if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(renderGuardrailsBench(await runGuardrailsBench()))
