// A call two execs deep needs approval and the runtime has no `approve` handler: the ROOT pauses,
// with the call in `pending.approvals`. The state is plain JSON; `resume` replays the tree down to
// the waiting call (no model call repeated) and goes on.
// Run: npx tsc -b && node examples/dist/durability/whole-tree-pause.js
import { pathToFileURL } from 'node:url'
import { Runtime, type RunState } from '@nestor/core'
import { trip } from './trip.js'

export async function main(log: (line: string) => void = console.log) {
  const { tools, provider, charged, modelCalls } = trip({ chargeNeedsApproval: true })
  const runtime = new Runtime({ provider, model: 'demo' })

  const paused = await runtime.exec('Plan my Lisbon trip', { tools })
  const [waiting] = paused.pending?.approvals ?? []
  log(
    `status: ${paused.status}; waiting: ${waiting?.toolName} at depth ${waiting?.depth}, path ${waiting?.path.join(' > ')}`,
  )

  // Stored anywhere as JSON (a database row, a queue message), decided later, resumed once.
  const stored = JSON.stringify(paused.pending?.state)
  const done = await runtime.resume(JSON.parse(stored) as RunState, { approve: [waiting?.toolCallId ?? ''] }, { tools })
  log(`status: ${done.status}: ${done.text} (charged ${charged.length}×, model calls: ${modelCalls.join('; ')})`)
  return { paused, done, charged, modelCalls }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
