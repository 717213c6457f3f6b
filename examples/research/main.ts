// A small multi-agent app, offline: an editor asks a Researcher (an Agent instance as tools),
// whose `investigate` method runs a nested exec that calls a FactChecker agent as a tool.
//   npx tsc -b && node examples/dist/research/main.js
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Runtime, type AgentEvent, type ExecResult } from '@nestor/core'
import { Researcher } from './agents.js'
import { formatEvent } from './print.js'
import { researchModel } from './scripted-model.js'

export type ResearchRun = { result: ExecResult; events: AgentEvent[] }

export async function main(write: (line: string) => void = console.log): Promise<ResearchRun> {
  const runtime = new Runtime({
    provider: researchModel(),
    model: 'scripted-research',
    system: 'You are an editor. Delegate research, then write a brief.',
  })
  const researcher = new Researcher({
    decorators: 'Standard decorators are functions (value, context) => replacement.',
  })
  const run = runtime.exec('Write a brief on decorators.', { tools: [researcher] })
  const events: AgentEvent[] = []
  for await (const event of run) {
    events.push(event)
    const line = formatEvent(event)
    if (line !== undefined) write(line)
  }
  const result = await run
  write(`\n${result.text}`)
  return { result, events }
}

// Run as a script (not when imported by a test).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { result } = await main()
  process.exitCode = result.status === 'completed' ? 0 : 1
}
