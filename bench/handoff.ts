import { loadavg } from 'node:os'
import { pathToFileURL } from 'node:url'
import { Runtime, agentProfile, defineTool, type HandoffAgent } from '@nestor/core'
import { z } from 'zod'
import { memoryProvider } from './micro-runtime.js'
import { formatTime, type MicroResult } from './time-per-op.js'

// What a handoff costs the loop: an exec that hands over once (transfer, then the target's
// answer) against the same two-turn exec with a plain tool call, and a three-turn one. The issue's
// bound: the handoff exec costs no more than the three-turn one, i.e. a handoff ≤ one extra turn.
// In-memory provider (no HTTP, no SDK): what is left is the loop. Warm, interleaved passes.

const TARGET = 'You are the target.'
const target: HandoffAgent = { [agentProfile]: () => ({ name: 'target', instructions: TARGET, tools: [] }) }
const noop = defineTool({
  name: 'noop',
  description: 'does nothing',
  parameters: z.object({ i: z.number() }),
  execute: () => 'ok',
})

/** Plain: `turns - 1` noop calls, then text. Handoff: a transfer, then the target's text. */
const provider = memoryProvider((request) => {
  if (request.system === TARGET) return { text: ['done'] }
  if (request.tools.some((t) => t.name === 'transfer_to_target'))
    return { call: { name: 'transfer_to_target', args: {} } }
  const answered = request.messages.filter((m) => m.role === 'toolResult').length
  const wanted = Number(request.messages[0]?.role === 'user' ? request.messages[0].content : 0) - 1
  return answered < wanted ? { call: { name: 'noop', args: { i: answered } } } : { text: ['done'] }
})

export type HandoffBench = {
  twoTurns: number
  threeTurns: number
  handoff: number
  /** The median over passes of (handoff exec / three-turn exec) in the same pass: ≤ 1 is the bound. */
  ratio: number
  turnsRight: boolean
}

/**
 * Best CPU time per exec (ms) of each kind over `passes` interleaved passes of `execs` execs: CPU
 * time, not wall time, because on a shared machine waiting for a core is not the loop's cost.
 */
export async function measureHandoff(passes = 15, execs = 150): Promise<HandoffBench> {
  const runtime = new Runtime({ provider, model: 'm' })
  let turnsRight = true
  const kinds = {
    twoTurns: { input: '2', options: { tools: [noop] }, iterations: 2, agent: undefined },
    handoff: { input: 'go', options: { tools: [noop], handoffs: [target] }, iterations: 2, agent: 'target' },
    threeTurns: { input: '3', options: { tools: [noop] }, iterations: 3, agent: undefined },
  }
  const best = { twoTurns: Infinity, threeTurns: Infinity, handoff: Infinity }
  const ratios: number[] = []
  // Interleaved: JIT warm-up and the machine's drift hit all three alike; the first pass warms up.
  for (let pass = 0; pass <= passes; pass++) {
    const thisPass = { twoTurns: 0, threeTurns: 0, handoff: 0 }
    for (const [name, kind] of Object.entries(kinds)) {
      const start = process.cpuUsage()
      for (let i = 0; i < execs; i++) {
        const result = await runtime.exec(kind.input, kind.options)
        turnsRight &&= result.iterationsUsed === kind.iterations && result.agent === kind.agent
      }
      const used = process.cpuUsage(start)
      const perExec = (used.user + used.system) / 1000 / execs
      const key = name as keyof typeof best
      thisPass[key] = perExec
      if (pass > 0) best[key] = Math.min(best[key], perExec)
    }
    if (pass > 0) ratios.push(thisPass.handoff / thisPass.threeTurns)
  }
  ratios.sort((a, b) => a - b)
  return { ...best, ratio: ratios[Math.floor(ratios.length / 2)] ?? NaN, turnsRight }
}

export async function handoffMicro(): Promise<MicroResult[]> {
  const m = await measureHandoff()
  const turn = m.threeTurns - m.twoTurns
  const extra = m.handoff - m.twoTurns
  return [
    {
      name: 'exec with one handoff (transfer, then the target answers)',
      perOp: formatTime(m.handoff),
      note:
        `${m.ratio.toFixed(2)}× a three-turn exec in the same pass (median of passes; bound ≤ 1); best: ${formatTime(m.threeTurns)} three turns, ` +
        `two plain turns ${formatTime(m.twoTurns)}, so the handoff adds ${formatTime(Math.max(0, extra))} ` +
        `against ${formatTime(Math.max(0, turn))} for one extra turn; best CPU time per exec` +
        (m.turnsRight ? '' : '; TURN COUNTS WRONG'),
    },
  ]
}

// `node bench/dist/handoff.js`: this line alone, with the machine's load.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [row] = await handoffMicro()
  console.log(`${row!.name}: ${row!.perOp} — ${row!.note} (load ${loadavg()[0]!.toFixed(2)}, warm, in-memory provider)`)
}
