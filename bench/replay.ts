import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { Runtime, defineTool, memoryJournal, type Journal, type Provider } from '@nestor/core'
import { openai } from '@nestor/providers'
import { z } from 'zod'
import { formatTime, timePerOp } from './time-per-op.js'
import { API_KEY, ECHO_DESCRIPTION, MODEL, SYSTEM, promptFor, verify } from './scenario.js'

// What a replay costs next to the run it replays (docs/durability.md): a T-turn tool exec run
// against the mock over HTTP with a journal, then the same exec replayed from that journal (no
// model call, no tool body). Timed in alternating passes, best batch of each; the ratio is the
// goal (< 5 %). `pnpm bench:replay` runs it with the mock in its own process.

export type ReplayReport = { live: number; replay: number; ratio: number; liveCalls: number; replayCalls: number }

/** Counts model calls, keeping the provider's fast path. */
function counting(provider: Provider, count: { calls: number }): Provider {
  const counted: Provider = {
    name: provider.name,
    stream: (request, signal) => (count.calls++, provider.stream(request, signal)),
    secrets: () => provider.secrets?.() ?? [],
  }
  const fast = provider.streamTo?.bind(provider)
  if (fast) counted.streamTo = (request, signal, sink) => (count.calls++, fast(request, signal, sink))
  return counted
}

export async function replayBench(baseURL: string, t = 50, batches = 5): Promise<ReplayReport> {
  const scenario = { kind: 'tools' as const, t, c: 50 }
  let bodies = 0
  const echo = defineTool({
    name: 'echo',
    description: ECHO_DESCRIPTION,
    parameters: z.object({ text: z.string(), pad: z.string() }),
    execute: ({ text }) => (bodies++, text),
  })
  const count = { calls: 0 }
  const runtime = new Runtime({
    provider: counting(openai({ baseURL, apiKey: API_KEY }), count),
    model: MODEL,
    system: SYSTEM,
    maxIterations: t + 2,
  })
  const once = async (journal: Journal, runId: string) => {
    const before = bodies
    const run = runtime.exec(promptFor(scenario), { tools: [echo], journal, runId })
    for await (const event of run) void event
    const result = await run
    return { text: result.text, bodies: bodies - before }
  }

  // The recorded run, checked like every bench run; its journal is what the replays read.
  const recorded = memoryJournal()
  const first = await once(recorded, 'recorded')
  verify('nestor (recorded)', scenario, { toolCalls: first.bodies, text: first.text })
  count.calls = 0
  const replayed = await once(recorded, 'recorded')
  if (count.calls !== 0 || replayed.bodies !== 0 || replayed.text !== first.text)
    throw new Error(`a replay made ${count.calls} model calls and ran ${replayed.bodies} bodies`)

  let live = Infinity
  let replay = Infinity
  let fresh = 0
  for (let pass = 0; pass < 4; pass++) {
    // A live run journals too (into a fresh journal): the cost compared is the one a durable run pays.
    live = Math.min(live, await timePerOp(() => once(memoryJournal(), `live-${fresh++}`), 1, batches))
    replay = Math.min(replay, await timePerOp(() => once(recorded, 'recorded'), 1, batches))
  }
  count.calls = 0
  await once(recorded, 'recorded')
  const replayCalls = count.calls
  count.calls = 0
  await once(memoryJournal(), 'check')
  return { live, replay, ratio: replay / live, liveCalls: count.calls, replayCalls }
}

async function main(): Promise<void> {
  const proc = spawn(process.execPath, [fileURLToPath(new URL('./mock-server-main.js', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const baseURL = await new Promise<string>((resolve, reject) => {
    let buf = ''
    proc.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve((JSON.parse(buf.slice(0, nl)) as { baseURL: string }).baseURL)
    })
    proc.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)))
  })
  try {
    const t = Number(process.env.BENCH_REPLAY_TURNS ?? 50)
    const r = await replayBench(baseURL, t)
    process.stdout.write(
      [
        `### Replay cost (${t}-tool-turn exec, mock over HTTP in its own process)`,
        '',
        '| run | best time | model calls |',
        '|---|---:|---:|',
        `| live, journaled | ${formatTime(r.live)} | ${r.liveCalls} |`,
        `| replayed from the journal | ${formatTime(r.replay)} | ${r.replayCalls} |`,
        '',
        `Replay / live: **${(r.ratio * 100).toFixed(1)} %** (goal < 5 %).`,
        '',
      ].join('\n'),
    )
    if (r.ratio >= 0.05) process.exitCode = 1
  } finally {
    proc.kill('SIGTERM')
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
