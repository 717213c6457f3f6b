// A worker process for the @nestor/dbos tests: it runs compiled packages (dist/, built by `tsc -b`),
// registers the test app's execs with DBOS, launches, and then either serves its queue (MODE=worker)
// or does one client operation and prints its outcome as JSON (MODE=start|events|batch|sequential),
// or runs the execs without DBOS (MODE=plain, the baseline of bench/dbos.ts).
//
// Environment: DBOS_SYSTEM_DATABASE_URL, MODEL_URL, TOOL_LOG (a file: one line per leaf tool body run),
// EXECUTOR_ID, SCENARIO (planner | quick | pay), PAYMENTS_URL, RECOVER (a dead executor's id), APPROVE_BOOK=1 / APPROVE_LOOKUP=1 (the tool needs approval),
// ASK_LOOKUP=1 (lookup asks which season, ctx.ask), CONCURRENCY,
// INBOX_IDLE_CHECK_MS (durable()'s inboxIdleCheckMs), KILL_AT (a step of taking a steering message),
// BLOCK_CITY (a beforeToolCall policy that blocks booking that city).
import { appendFileSync } from 'node:fs'
import { DBOS } from '@dbos-inc/dbos-sdk'
import { Runtime, defineTool, exec } from '@nestor/core'
import { openai } from '@nestor/providers'
import { durable } from '@nestor/dbos'
import { z } from 'zod/v4'

const env = process.env
const logTool = (line) => appendFileSync(env.TOOL_LOG, `${line}\n`)
const workflowOf = () => (DBOS.workflowID ?? 'none').replace(/\.inbox$/, '')

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a city up',
  parameters: z.object({ city: z.string() }),
  needsApproval: env.APPROVE_LOOKUP === '1',
  execute: async ({ city }, ctx) => {
    const season =
      env.ASK_LOOKUP === '1'
        ? ` in ${(await ctx.ask(`Which season in ${city}?`, z.object({ season: z.enum(['spring', 'autumn']) }))).season}`
        : ''
    logTool(`lookup ${workflowOf()} ${city}${season}`)
    return `facts about ${city}${season}`
  },
})
const book = defineTool({
  name: 'book',
  description: 'Book a trip',
  parameters: z.object({ city: z.string() }),
  needsApproval: env.APPROVE_BOOK === '1',
  execute: async ({ city }) => {
    logTool(`book ${workflowOf()} ${city}`)
    return `booked ${city}`
  },
})
// A charge through the payments API at PAYMENTS_URL, keyed by the call (test/support/payments-api.ts).
const pay = defineTool({
  name: 'pay',
  description: 'Charge the card',
  parameters: z.object({ amount: z.number() }),
  execute: async ({ amount }, ctx) => {
    logTool(`pay ${workflowOf()} ${ctx.idempotencyKey}`)
    const response = await fetch(`${env.PAYMENTS_URL}/v1/charges`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': ctx.idempotencyKey },
      body: JSON.stringify({ amount }),
    })
    if (!response.ok) throw new Error(`payments API ${response.status}`)
    return `charge ${(await response.json()).id}`
  },
})
// A tool whose body opens a nested exec: the researcher has its own model turns and leaf tool.
const research = defineTool({
  name: 'research',
  description: 'Research a city with a sub-agent',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) =>
    (await exec(`Research ${city}`, { system: 'You are the researcher.', tools: [lookup] })).text,
})

const scenarios = {
  planner: { system: 'You are the planner.', tools: [research, book] },
  quick: { system: 'quick', tools: [lookup], maxIterations: 100 },
  pay: { system: 'You are the payer.', tools: [pay] },
}
const runtime = new Runtime({
  provider: openai({ baseURL: `${env.MODEL_URL}/v1`, apiKey: 'sk-test-dbos', maxRetries: 0 }),
  model: 'mock-model',
  // BLOCK_CITY=<city>: the app's policy refuses to book that city, whoever approved it.
  ...(env.BLOCK_CITY && {
    hooks: {
      beforeToolCall: (call) =>
        call.name === 'book' && call.arguments.city === env.BLOCK_CITY
          ? { block: true, reason: `no bookings in ${env.BLOCK_CITY}` }
          : undefined,
    },
  }),
})
const trips = durable(runtime, {
  name: env.SCENARIO,
  concurrency: Number(env.CONCURRENCY ?? 4),
  exec: scenarios[env.SCENARIO],
  ...(env.INBOX_IDLE_CHECK_MS ? { inboxIdleCheckMs: Number(env.INBOX_IDLE_CHECK_MS) } : {}),
  // KILL_AT=received|handed|taken: this process dies (SIGKILL) at that step of taking a steering message.
  ...(env.KILL_AT ? { onInboxStep: (step) => step === env.KILL_AT && process.kill(process.pid, 'SIGKILL') } : {}),
})

const mode = env.MODE ?? 'worker'
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`)
const count = Number(env.COUNT ?? 0)

if (mode === 'plain') {
  // The same execs without DBOS, one after another: the baseline for the per-step overhead.
  const started = performance.now()
  const failed = []
  for (let i = 0; i < count; i++) {
    const result = await runtime.exec(`${env.INPUT ?? ''}plain-${i}`, {
      system: 'quick',
      tools: [lookup],
      maxIterations: 100,
    })
    if (result.status !== 'completed') failed.push(`plain-${i}: ${result.status}`)
  }
  print({ elapsedMs: performance.now() - started, failed })
  process.exit(0)
}

DBOS.setConfig({
  name: 'nestor-dbos-test',
  systemDatabaseUrl: env.DBOS_SYSTEM_DATABASE_URL,
  applicationVersion: 'test',
  executorID: env.EXECUTOR_ID ?? `client-${process.pid}`,
  logLevel: 'error',
  // Clients start, read and decide; only workers take execs off the queue.
  ...(mode === 'worker' ? {} : { listenQueues: ['nestor-no-such-queue'] }),
})
await DBOS.launch()

if (mode === 'worker') {
  print({ ready: true })
  // RECOVER=<executor id>: this worker takes over the execs of that dead executor (docs/dbos.md).
  if (env.RECOVER) print({ recovered: await trips.recover(env.RECOVER) })
} else if (mode === 'start') {
  const handle = await trips.start(env.INPUT ?? 'Plan Lisbon', { workflowId: env.WORKFLOW_ID })
  print({ started: handle.workflowId })
  await DBOS.shutdown()
  process.exit(0)
} else if (mode === 'batch' || mode === 'sequential') {
  // Enqueues COUNT execs (all at once, or each after the previous ended) and times them to the end.
  const started = performance.now()
  const ids = Array.from({ length: count }, (_, i) => `${env.PREFIX}-${i}`)
  // Execs that did not complete (bench/dbos.ts refuses a timing that includes one).
  const failed = []
  const check = (id, result) => result.status === 'completed' || failed.push(`${id}: ${result.status}`)
  if (mode === 'batch') {
    const handles = await Promise.all(ids.map((id) => trips.start(`${env.INPUT ?? ''}${id}`, { workflowId: id })))
    for (const [i, result] of (await Promise.all(handles.map((handle) => handle.result()))).entries())
      check(ids[i], result)
  }
  // One after another, each timed from start() to its result (bench/dbos.ts reads the latencies).
  const latencies = []
  if (mode === 'sequential')
    for (const id of ids) {
      const begun = performance.now()
      check(id, await (await trips.start(`${env.INPUT ?? ''}${id}`, { workflowId: id })).result())
      latencies.push(performance.now() - begun)
    }
  print({ elapsedMs: performance.now() - started, latencies, failed })
  await DBOS.shutdown()
  process.exit(0)
} else if (mode === 'events') {
  // Reads after AFTER and stops after LIMIT events (a reader that disconnects), printing each.
  let count = 0
  for await (const event of trips.events(env.WORKFLOW_ID, { after: Number(env.AFTER ?? 0) })) {
    print({ position: event.position, type: event.type, execId: event.execId, seq: event.seq })
    if (++count === Number(env.LIMIT ?? Infinity)) break
  }
  await DBOS.shutdown()
  process.exit(0)
}
