// The README's first command. An agent app with nested agents, several tools and an approval:
//   pnpm demo                                  offline: replays the committed cassette
//   pnpm demo -- --provider openai|anthropic|gemini|ollama [--model M]   live, with your key/server
//   --json                                     the event stream as JSON lines
//   --yes / --no                               approve / reject without asking, even in a terminal
//   --record-cassette [--no]                   re-record the committed cassette from the scripted model
//                                              (run it with and without --no: both approval answers)
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Runtime, type AgentEvent, type Provider } from '@nestor/core'
import { replay } from '@nestor/providers'
import { approver } from './approve.js'
import { briefStatesCost } from './brief-guardrail.js'
import { liveProvider, parseArgs, repoRoot } from './live-provider.js'
import { LoopRenderer, type Sink } from './render.js'
import { demoModel } from './scripted-model.js'
import { OFFLINE_PRICED_AS, offlinePrices } from './offline-prices.js'
import { DEMO_PROMPT, PLANNER_SYSTEM, plannerTools } from './trip-agents.js'

export const DEMO_MODEL = 'scripted-demo'
export const demoCassetteDir = (): string => join(repoRoot(), 'test', 'fixtures', 'cassettes', 'demo')

export type DemoIO = {
  write: Sink
  /** Approvals are asked (y/n). Default: stdin and stdout are terminals. */
  interactive?: boolean
  /** ANSI colours. Default: stdout is a terminal and NO_COLOR is unset. Never on in a pipe or a file. */
  color?: boolean
  /** Pause between replayed events so the offline run can be watched. Default 0 outside a terminal. */
  paceMs?: number
}

export async function main(argv: string[], io: DemoIO = defaultIO()): Promise<number> {
  const args = parseArgs(argv)
  const interactive = io.interactive ?? false
  const json = args.has('json')
  const choice = args.get('provider')
  const model = typeof args.get('model') === 'string' ? (args.get('model') as string) : undefined
  let target: { provider: Provider; model: string }
  if (args.has('record-cassette')) {
    target = { provider: replay({ provider: demoModel(), dir: demoCassetteDir(), mode: 'record' }), model: DEMO_MODEL }
  } else if (typeof choice === 'string' && choice !== 'replay') {
    const live = liveProvider(choice, model)
    if (typeof live === 'string') {
      io.write(`demo: ${live}\n`)
      return 2
    }
    target = live
  } else {
    target = { provider: replay({ dir: demoCassetteDir(), mode: 'strict', paceMs: io.paceMs ?? 0 }), model: DEMO_MODEL }
  }

  const renderer = json ? undefined : new LoopRenderer(io.write, io.color ?? false)
  const offline = !(typeof choice === 'string' && choice !== 'replay') && !args.has('record-cassette')
  const runtime = new Runtime({
    ...(offline && { prices: await offlinePrices(DEMO_MODEL) }),
    provider: target.provider,
    model: target.model,
    system: PLANNER_SYSTEM,
    maxIterations: 20,
    approve: approver(interactive && !json, renderer, args.has('yes') ? true : args.has('no') ? false : undefined),
    guardrails: { tools: [briefStatesCost] },
  })
  // The runtime's listener is synchronous, so each line is drawn before the next step runs (and
  // before an approval prompt appears).
  runtime.on('*', (event: AgentEvent) => {
    if (json) io.write(`${JSON.stringify(event)}\n`)
    else renderer?.render(event)
  })
  const source = offline
    ? `offline replay of test/fixtures/cassettes/demo, priced at ${OFFLINE_PRICED_AS} rates (live: --provider openai|anthropic|gemini|ollama)`
    : `${target.provider.name} · ${target.model}`
  if (!json) io.write(`nestor demo — ${source}\n> ${DEMO_PROMPT}\n\n`)
  const result = await runtime.exec(DEMO_PROMPT, { tools: plannerTools() })
  if (!json) io.write(`\n${result.text || '(no answer)'}\n`)
  return result.status === 'completed' ? 0 : 1
}

function defaultIO(): DemoIO {
  // `pnpm demo -- --json | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
  const terminal = Boolean(process.stdout.isTTY)
  const interactive = terminal && Boolean(process.stdin.isTTY)
  const color = terminal && process.env.NO_COLOR === undefined
  return { write: (text) => void process.stdout.write(text), interactive, color, paceMs: terminal ? 15 : 0 }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
