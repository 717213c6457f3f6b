import { fileURLToPath } from 'node:url'
import { cpus, loadavg } from 'node:os'
import { Runtime, defineGuardrail, defineTool, type GuardrailOptions } from '@nestor/core'
import { openai, scripted } from '@nestor/providers'
import { startServerProcess } from './mock-server-process.js'
import { API_KEY, ECHO_DESCRIPTION, MODEL, SYSTEM, promptFor, verify } from './scenario.js'
import { z } from 'zod'
import { formatTime } from './time-per-op.js'
import { fmt } from './stats.js'

// What guardrails cost the loop (docs/guardrails.md): the same exec with no guardrails and with
// two pass-through function guardrails, warm, batches interleaved so JIT warm-up and machine noise
// hit each alike; a ratio measured in one process, in two regimes (an in-memory model, the
// harshest; the OpenAI SDK over HTTP to the bench's mock). Goal: ≤ 1.02×.

export type GuardrailsBench = {
  /** `checks`: how many checks the configuration's guardrails ran (a bench that checks nothing measures nothing). */
  rows: { regime: string; name: string; ms: number; checks: number }[]
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

/** One regime: how an exec of it runs, how many execs a batch holds. */
type Regime = { name: string; execs: number; run: (guardrails: GuardrailOptions | undefined) => Promise<void> }

/** The in-memory regime: a tool turn and a text turn from a scripted model, no HTTP, no SDK. */
function inMemory(): Regime {
  const model = scripted((request) =>
    request.messages.some((m) => m.role === 'toolResult')
      ? 'done'
      : { content: [{ type: 'toolCall', name: 'echo', arguments: { text: 'hi' } }] },
  )
  const runtime = new Runtime({ provider: model, model: 'm' })
  return {
    name: 'in-memory model (tool turn + text turn)',
    execs: 40,
    run: async (guardrails) => {
      const result = await runtime.exec('go', { tools: [echo], ...(guardrails && { guardrails }) })
      if (result.status !== 'completed') throw new Error(`bench exec ended ${result.status}`)
    },
  }
}

/** The wire regime: the OpenAI SDK against the bench's mock server, 3 tool turns and a 50-chunk answer. */
function overTheWire(baseURL: string): Regime {
  const scenario = { kind: 'tools' as const, t: 3, c: 50 }
  let bodies = 0
  const wireEcho = defineTool({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: z.object({ text: z.string(), pad: z.string() }),
    execute: ({ text }) => (bodies++, text),
  })
  const runtime = new Runtime({ provider: openai({ baseURL, apiKey: API_KEY }), model: MODEL, system: SYSTEM })
  return {
    name: 'OpenAI SDK over HTTP to the mock (3 tool turns + text)',
    execs: 10,
    run: async (guardrails) => {
      const before = bodies
      const result = await runtime.exec(promptFor(scenario), { tools: [wireEcho], ...(guardrails && { guardrails }) })
      verify('nestor (guardrails bench)', scenario, { toolCalls: bodies - before, text: result.text })
    },
  }
}

/**
 * Each regime given (in memory; over the wire with `baseURL`): after warm-up, one batch of each
 * configuration per round, in turn, so a disturbance of the shared machine lands on one sample;
 * the best batch of each is compared. CPU time (this process's; the mock has its own), not wall
 * time: on a shared machine the wait for a core is not this code's cost.
 */
export async function runGuardrailsBench(
  rounds = Number(process.env.BENCH_GUARDRAIL_ROUNDS ?? 80),
  baseURL?: string,
): Promise<GuardrailsBench> {
  const regimes = [inMemory(), ...(baseURL ? [overTheWire(baseURL)] : [])]
  const rows: GuardrailsBench['rows'] = []
  for (const regime of regimes) {
    const batch = async (guardrails: GuardrailOptions | undefined) => {
      const started = process.cpuUsage()
      for (let i = 0; i < regime.execs; i++) await regime.run(guardrails)
      const used = process.cpuUsage(started)
      return (used.user + used.system) / 1000 / regime.execs
    }
    checks.fill(0)
    for (let i = 0; i < 3; i++) for (const config of CONFIGS) await batch(config.guardrails)
    const best = CONFIGS.map(() => Infinity)
    // Fewer rounds over the wire: each of its execs is ten times the work.
    const n = regime.execs === 40 ? rounds : Math.max(1, Math.ceil(rounds / 3))
    // The order rotates each round: no configuration always runs first after the others' garbage.
    for (let r = 0; r < n; r++)
      for (let k = 0; k < CONFIGS.length; k++) {
        const i = (r + k) % CONFIGS.length
        best[i] = Math.min(best[i] as number, await batch(CONFIGS[i]?.guardrails))
      }
    for (const [i, c] of CONFIGS.entries())
      rows.push({
        regime: `${regime.name}, warm, CPU time, best of ${n} interleaved batches of ${regime.execs}`,
        name: c.name,
        ms: best[i] as number,
        checks: checks[i] as number,
      })
  }
  return { rows, load: loadavg()[0] ?? 0, cores: cpus().length }
}

export function renderGuardrailsBench({ rows, load, cores }: GuardrailsBench): string {
  const out = ['### Guardrails: what pass-through checks add to an exec', '']
  out.push('| exec | regime | CPU per exec | vs none | goal |', '|---|---|---:|---:|---|')
  let base = NaN
  for (const r of rows) {
    const first = r.name === CONFIGS[0]?.name
    if (first) base = r.ms
    out.push(
      `| ${r.name} | ${r.regime} | ${formatTime(r.ms)} | ${first ? '1.00×' : `${fmt(r.ms / base, 3)}×`} | ${first ? 'baseline' : '≤ 1.02×'} |`,
    )
  }
  out.push('', `Machine load (1 min) ${fmt(load, 2)} on ${cores} cores when measured.`, '')
  return out.join('\n')
}

// `node bench/dist/guardrails.js` (`pnpm bench:guardrails`) runs this part of the bench alone,
// with the mock in a process of its own.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { baseURL, proc } = await startServerProcess()
  try {
    process.stdout.write(renderGuardrailsBench(await runGuardrailsBench(undefined, baseURL)))
  } finally {
    proc.kill('SIGTERM')
  }
}
