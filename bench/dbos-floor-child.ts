import { ConfiguredInstance, DBOS } from '@dbos-inc/dbos-sdk'
import { Runtime, defineTool } from '@nestor/core'
import { durable } from '@nestor/dbos'
import { openai } from '@nestor/providers'
import { readFileSync, readdirSync } from 'node:fs'
import OpenAI from 'openai'
import pg from 'pg'
import { z } from 'zod/v4'
import { quantile } from './stats.js'

// One round of bench/dbos.ts's floor comparison, in one process on one Postgres: a hand-written
// DBOS workflow (a step per model turn on the raw openai SDK, a step per tool call) against
// @nestor/dbos doing the same exec, measure by measure, each measure run floor/nestor alternately
// (who goes first alternates with ROUND). Every exec's answer is checked; one result line of JSON.
// Env: DBOS_SYSTEM_DATABASE_URL, MODEL_URL, ROUND, QUICK=1 (a tiny round, for a smoke run),
// BENCH_DBOS_BLOCKS (longer throughput blocks).

const env = process.env
const quick = env['QUICK'] === '1'
const IN_FLIGHT = 32
const systemPrompt = 'quick'

type Tool = OpenAI.Chat.Completions.ChatCompletionTool
type Message = OpenAI.Chat.Completions.ChatCompletionMessageParam
const client = new OpenAI({ baseURL: `${env['MODEL_URL']}/v1`, apiKey: 'sk-bench-dbos', maxRetries: 0 })
const tools: Tool[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Look a city up',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
]
const facts = (city: string) => `facts about ${city}`

/** One streamed model turn, tool-call fragments gathered by index: what a hand-written loop does. */
async function modelTurn(messages: Message[]) {
  const stream = await client.chat.completions.create({ model: 'mock-model', messages, tools, stream: true })
  let text = ''
  const calls: { id: string; name: string; arguments: string }[] = []
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta
    if (delta?.content) text += delta.content
    for (const part of delta?.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: '', name: '', arguments: '' })
      if (part.id) call.id = part.id
      if (part.function?.name) call.name += part.function.name
      if (part.function?.arguments) call.arguments += part.function.arguments
    }
  }
  return { text, calls }
}

const floor = DBOS.registerWorkflow(
  async (input: string): Promise<string> => {
    const messages: Message[] = [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: input },
    ]
    for (let turn = 0; turn < 100; turn++) {
      const answer = await DBOS.runStep(() => modelTurn(messages), { name: 'floor.model' })
      if (answer.calls.length === 0) return answer.text
      messages.push({
        role: 'assistant',
        content: answer.text || null,
        tool_calls: answer.calls.map((call) => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        })),
      })
      for (const call of answer.calls) {
        const result = await DBOS.runStep(async () => facts((JSON.parse(call.arguments) as { city: string }).city), {
          name: 'floor.tool',
        })
        messages.push({ role: 'tool', tool_call_id: call.id, content: result })
      }
    }
    throw new Error('floor: no answer in 100 turns')
  },
  { name: 'floor.exec' },
)

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a city up',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => facts(city),
})
const runtime = new Runtime({
  provider: openai({ baseURL: `${env['MODEL_URL']}/v1`, apiKey: 'sk-bench-dbos', maxRetries: 0 }),
  model: 'mock-model',
})
const nestor = durable(runtime, {
  name: 'bench',
  concurrency: IN_FLIGHT,
  exec: { system: systemPrompt, tools: [lookup], maxIterations: 100 },
})

DBOS.setConfig({
  name: 'nestor-bench-dbos',
  systemDatabaseUrl: env['DBOS_SYSTEM_DATABASE_URL'] as string,
  applicationVersion: 'bench',
  executorID: `bench-${env['ROUND']}`,
  logLevel: 'error',
})
// The same queue settings as @nestor/dbos's, written the same way (as DBOS launches, so the
// dispatcher's first read has them): 100 ms polling, the same per-worker limit.
const floorQueue = 'floor'
class FloorQueue extends ConfiguredInstance {
  override async initialize(): Promise<void> {
    await DBOS.registerQueue(floorQueue, {
      workerConcurrency: IN_FLIGHT,
      minPollingIntervalMs: 100,
      onConflict: 'always_update',
    })
  }
}
new FloorQueue(floorQueue)
await DBOS.launch()

type System = 'floor' | 'nestor'
type Start = { queued: boolean; turns: number }
let serial = 0
/** One exec start → checked answer; the time it took. The mock answers `ok <input>` after `turns` tool turns. */
async function once(system: System, { queued, turns }: Start): Promise<number> {
  const id = `${system}-${env['ROUND']}-${serial++}`
  const input = `steps:${turns} ${id}`
  const begun = performance.now()
  let text: string | undefined
  if (system === 'floor') {
    const handle = await DBOS.startWorkflow(floor, { workflowID: id, ...(queued ? { queueName: floorQueue } : {}) })(
      input,
    )
    // As nestor's result() does: through the queue, the handle polls the database at this interval.
    text = await handle.getResult({ pollingIntervalMs: 100 })
  } else {
    const result = await (await nestor.start(input, { workflowId: id, queued })).result()
    if (result.status !== 'completed') throw new Error(`nestor ${id}: ${result.status} ${result.error?.message}`)
    text = result.text
  }
  const took = performance.now() - begun
  if (text !== `ok ${input}`) throw new Error(`${system} ${id}: answered ${JSON.stringify(text)}`)
  return took
}

/** `count` execs of each system, one at a time, alternating; the latencies of each. */
async function latencies(start: Start, count: number, first: System) {
  const order: System[] = first === 'floor' ? ['floor', 'nestor'] : ['nestor', 'floor']
  const out: Record<System, number[]> = { floor: [], nestor: [] }
  for (let i = 0; i < count; i++) for (const system of order) out[system].push(await once(system, start))
  return out
}

/** Execs per second with `inFlight` execs always in flight, `total` in all, through the queue; and Postgres CPU ms per exec. */
async function throughput(system: System, turns: number, inFlight: number, total: number) {
  let next = 0
  const cpu = await postgresCpuMs()
  const begun = performance.now()
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < total) await once(system, { queued: true, turns })
    }),
  )
  const rate = (total / (performance.now() - begun)) * 1000
  return { rate, cpu: ((await postgresCpuMs()) - cpu) / total }
}

// Write transactions (each a commit with an xid) per exec: the database's own counter, read
// before and after a block of execs; `txid_current()` takes one xid itself.
const pool = new pg.Pool({ connectionString: env['DBOS_SYSTEM_DATABASE_URL'], max: 1 })
const xid = async () => Number((await pool.query('SELECT txid_current() AS x')).rows[0].x)

// Postgres CPU: user + system time of the postmaster's live children (backends, WAL writer…)
// plus what its children that exited used (cutime + cstime), from Linux's /proc, in clock ticks
// (10 ms): so only blocks of many execs say anything. NaN where there is no /proc.
const TICK_MS = 10
const statFields = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
}
const postmaster = await pool
  .query('SELECT pg_backend_pid() AS pid')
  .then(({ rows }) => Number(statFields(rows[0].pid as number)[1]))
  .catch(() => NaN)
async function postgresCpuMs(): Promise<number> {
  if (Number.isNaN(postmaster)) return NaN
  // Fields after the name: 1 ppid, 11 utime, 12 stime, 13 cutime, 14 cstime.
  const own = statFields(postmaster)
  let ticks = Number(own[13]) + Number(own[14])
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const fields = statFields(entry)
      if (Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // Exited while listed: its time moves to the postmaster's cutime.
    }
  }
  return ticks * TICK_MS
}
async function commits(system: System, turns: number, count: number) {
  const before = await xid()
  for (let i = 0; i < count; i++) await once(system, { queued: true, turns })
  return ((await xid()) - before - 1) / count
}

const first: System = Number(env['ROUND'] ?? 0) % 2 === 0 ? 'floor' : 'nestor'
const second: System = first === 'floor' ? 'nestor' : 'floor'
const n = (full: number) => (quick ? 1 : full)
// BENCH_DBOS_BLOCKS: a multiple of each throughput block's exec count (1 by default: 48/64/16/32).
const blocks = Number(env['BENCH_DBOS_BLOCKS'] ?? 1)
await latencies({ queued: false, turns: 1 }, n(3), first) // warm-up: JIT, pools, prepared paths
const direct1 = await latencies({ queued: false, turns: 1 }, n(12), first)
const direct10 = await latencies({ queued: false, turns: 10 }, n(5), first)
const queued1 = await latencies({ queued: true, turns: 1 }, n(8), first)
const queued10 = await latencies({ queued: true, turns: 10 }, n(4), first)
const rates: Record<string, Record<System, number>> = {}
// Postgres CPU per exec over both throughput blocks of an exec length (8 and 32 in flight).
const cpu: Record<string, Record<System, number>> = { '1': { floor: 0, nestor: 0 }, '10': { floor: 0, nestor: 0 } }
for (const [turns, inFlight, total] of [
  [1, 8, n(48 * blocks)],
  [1, IN_FLIGHT, n(64 * blocks)],
  [10, 8, n(16 * blocks)],
  [10, IN_FLIGHT, n(32 * blocks)],
] as const) {
  const key = `${turns}@${inFlight}`
  rates[key] = { floor: 0, nestor: 0 }
  for (const system of [first, second]) {
    const block = await throughput(system, turns, inFlight, total)
    rates[key][system] = block.rate
    cpu[String(turns)]![system] += block.cpu / 2
  }
}
const writes: Record<string, Record<System, number>> = { '1': { floor: 0, nestor: 0 }, '10': { floor: 0, nestor: 0 } }
for (const turns of [1, 10])
  for (const system of [first, second]) writes[String(turns)]![system] = await commits(system, turns, n(4))

const p50 = (values: number[]) => quantile(values, 0.5)
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const both = (f: (values: number[]) => number, l: Record<System, number[]>) => ({
  floor: f(l.floor),
  nestor: f(l.nestor),
})
process.stdout.write(
  `${JSON.stringify({
    direct1: both(p50, direct1),
    direct10: both(p50, direct10),
    queued1: both(mean, queued1),
    queued10: both(mean, queued10),
    rates,
    writes,
    cpu,
  })}\n`,
)
await pool.end()
await DBOS.shutdown()
process.exit(0)
