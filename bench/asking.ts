import { loadavg } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Runtime, defineTool, exec, type Provider, type RunState, type Tool } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { z } from 'zod'

// Whether pausing for a question costs more than pausing for an approval (docs/asking.md "Cost"):
// the same two-level tree (the root's tool opens a child whose leaf waits), paused, its state
// through JSON, and resumed in another runtime to its end — once with the leaf needing approval,
// once with it asking. Warm (after warm-up, in one process), alternating batches, the best batch
// of each, timed in CPU time (this process's user + system): on a shared, loaded machine wall
// time mostly measures the wait for a core.
// `tsc -b && node bench/dist/asking.js`; results in bench/README.md.

setFlagsFromString('--expose_gc')
const gc = runInNewContext('gc') as () => void
const OPS = Number(process.env['OPS'] ?? 100)
const ROUNDS = Number(process.env['ROUNDS'] ?? 10)

/** The root calls `desk`; the child calls `leaf`; each answers 'ok' once it has a tool result. */
const provider: Provider = {
  name: 'bench-asking',
  async *stream(request): AsyncGenerator<ModelEvent> {
    const builder = new AssistantBuilder('bench-asking', request.model)
    yield builder.start()
    if (request.messages.some((m) => m.role === 'toolResult')) {
      yield builder.text('ok')
      yield builder.done('stop')
      return
    }
    const first = request.messages[0]
    const name = first?.role === 'user' && first.content === 'child' ? 'leaf' : 'desk'
    for (const event of [builder.toolCallStart(0, `call_${name}`, name), builder.toolCallEnd(0)]) if (event) yield event
    yield builder.done('toolUse')
  },
}

// Defined once, as a tool's parameters are: a schema built inside the body adds zod's own cost of
// building it and compiling its first parse on every run, which is the body's, not Nestor's.
const confirmation = z.object({ confirm: z.boolean() })

function tree(kind: 'approval' | 'input'): Tool[] {
  const leaf = defineTool({
    name: 'leaf',
    description: 'Waits for a person',
    parameters: z.object({}),
    needsApproval: kind === 'approval',
    execute: async (_args, ctx) => (kind === 'input' ? (await ctx.ask('Go ahead?', confirmation)).confirm : true),
  })
  const desk = defineTool({
    name: 'desk',
    description: 'Opens the child',
    parameters: z.object({}),
    execute: async () => (await exec('child', { tools: [leaf] })).text,
  })
  return [desk] as unknown as Tool[]
}

const options = { provider, model: 'm', retention: { maxFinishedRuns: 0 } }
const pausing = new Runtime(options)
const resuming = new Runtime(options)

async function pauseAndResume(kind: 'approval' | 'input', tools: Tool[]): Promise<void> {
  const paused = await pausing.exec('go', { tools })
  const pending = paused.pending
  if (!pending) throw new Error(`${kind}: ${paused.status}`)
  const state = JSON.parse(JSON.stringify(pending.state)) as RunState
  const decisions =
    kind === 'approval'
      ? { approve: pending.approvals.map((a) => a.toolCallId) }
      : { answers: Object.fromEntries(pending.inputs.map((i) => [i.id, { confirm: true }])) }
  const done = await resuming.resume(state, decisions, { tools })
  if (done.status !== 'completed') throw new Error(`${kind} resume: ${done.status}`)
}

const trees = { approval: tree('approval'), input: tree('input') }
const best = { approval: Infinity, input: Infinity }
/** CPU ms per pause-and-resume over one batch of OPS. */
async function batch(kind: 'approval' | 'input'): Promise<number> {
  // Each batch starts with a clean heap: it pays for its own garbage, not the other side's.
  gc()
  const start = process.cpuUsage()
  for (let i = 0; i < OPS; i++) await pauseAndResume(kind, trees[kind])
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000 / OPS
}
for (const kind of ['approval', 'input'] as const) await batch(kind) // warm-up
// Alternating rounds: a load spike on the shared machine falls on both sides alike.
for (let round = 0; round < ROUNDS; round++)
  for (const kind of round % 2 ? (['input', 'approval'] as const) : (['approval', 'input'] as const))
    best[kind] = Math.min(best[kind], await batch(kind))

console.log(
  JSON.stringify({
    regime: 'warm (one process, after warm-up; best of alternating batches; CPU time)',
    ops: OPS,
    approvalCpuMsPerPauseAndResume: Number(best.approval.toFixed(3)),
    inputCpuMsPerPauseAndResume: Number(best.input.toFixed(3)),
    ratioInputOverApproval: Number((best.input / best.approval).toFixed(3)),
    loadAverage1m: Number(loadavg()[0]!.toFixed(2)),
  }),
)
