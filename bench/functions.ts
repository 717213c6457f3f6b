import { Session } from 'node:inspector/promises'
import { Runtime, defineTool, type ToolInput } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'

// How much of Nestor's own code one exec runs: the distinct functions of @nestor/core and
// @nestor/providers it calls and how many calls it makes, from V8's precise coverage (function
// granularity, call counts). Early in a process V8 compiles every distinct function an exec
// touches, so fewer distinct functions is less work before the first exec is fast.
// Run: pnpm bench:functions

type Counts = { functions: number; calls: number }

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

const workloads: Record<string, { turns: () => Parameters<typeof scripted>[0]; tools: ToolInput[] }> = {
  'single-turn (text answer)': { turns: () => ['The answer is 42.'], tools: [add] },
  'one tool round': {
    turns: () => [{ content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 40 } }] }, 'It is 42.'],
    tools: [add],
  },
}

async function main(): Promise<void> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
  const rows: string[] = ['| workload | exec | distinct functions | calls |', '|---|---|---:|---:|']
  for (const [name, workload] of Object.entries(workloads)) {
    for (const label of ['first', 'second']) {
      await take(session) // resets the counters: only this exec is counted
      const runtime = new Runtime({ provider: scripted(workload.turns()), model: 'bench' })
      const run = runtime.exec('What is 2 + 40?', { tools: workload.tools })
      for await (const event of run) void event
      await run
      const counts = await take(session)
      rows.push(`| ${name} | ${label} | ${counts.functions} | ${counts.calls} |`)
    }
  }
  session.disconnect()
  console.log('Nestor code (packages/core and packages/providers) run by one exec, V8 precise coverage:\n')
  console.log(rows.join('\n'))
}

/** Functions of Nestor's packages called since the last take, and their calls. */
async function take(session: Session): Promise<Counts> {
  const { result } = await session.post('Profiler.takePreciseCoverage')
  const counts: Counts = { functions: 0, calls: 0 }
  for (const script of result) {
    if (!/\/packages\/(core|providers)\/(dist|bundle)\//.test(script.url)) continue
    for (const fn of script.functions) {
      const count = fn.ranges[0]?.count ?? 0
      if (count === 0) continue
      counts.functions++
      counts.calls += count
    }
  }
  return counts
}

await main()
