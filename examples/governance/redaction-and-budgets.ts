// Redaction and tree-wide budgets: secrets never reach events or receipts, and a budget breach
// is a typed failure naming the budget.
// Run: npx tsc -b && node examples/dist/governance/redaction-and-budgets.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type ExecResult, type Provider } from '@nestor/core'
import { scripted } from '@nestor/providers'

const call = (name: string, args: Record<string, unknown> = {}) => ({
  content: [{ type: 'toolCall' as const, name, arguments: args }],
})

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ events: AgentEvent[]; budget: ExecResult }> {
  const DB_PASSWORD = 'pg-pass-0c9d8e7f'
  const connect = defineTool({
    name: 'connect',
    description: 'Connect to the database',
    parameters: z.object({ password: z.string() }),
    execute: ({ password }) => Promise.reject(new Error(`auth failed for ${password}`)),
  })
  // A provider declares its own key through secrets(); the runtime adds its `secrets` option.
  const inner = scripted([call('connect', { password: DB_PASSWORD }), 'Could not connect.'])
  const provider: Provider = {
    name: inner.name,
    stream: (r, s) => inner.stream(r, s),
    secrets: () => ['sk-example-key-123'],
  }
  const runtime = new Runtime({ provider, model: 'demo', secrets: [DB_PASSWORD] })
  const events: AgentEvent[] = []
  runtime.on('*', (event) => events.push(event))
  const result = await runtime.exec('Connect please', { tools: [connect] })
  const end = events.find((e) => e.type === 'tool_end')
  log(`tool_end as listeners see it: ${JSON.stringify(end?.type === 'tool_end' ? end.result.content : null)}`)
  log(`receipt signature: ${result.receipts[0]?.signature}`)
  log(`any event holding the password: ${events.some((e) => JSON.stringify(e).includes(DB_PASSWORD))}`)

  // Budgets are shared by the whole exec tree and checked before each model call.
  const step = defineTool({
    name: 'step',
    description: 'One step',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `step ${n}`,
  })
  const budget = await new Runtime({
    provider: scripted([call('step', { n: 1 }), call('step', { n: 2 }), 'done']),
    model: 'demo',
    maxTotalIterations: 2,
  }).exec('go', { tools: [step] })
  log(`budget: ${budget.status} ${budget.error?.code}: ${budget.error?.message}`)
  return { events, budget }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
