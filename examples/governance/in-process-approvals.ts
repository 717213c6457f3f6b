// In-process approvals at any depth: a tool two execs down needs approval; the runtime's
// `approve` handler decides while the loop waits, and the root stream sees the request.
// Run: npx tsc -b && node examples/dist/governance/in-process-approvals.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ApprovalRequest, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ result: ExecResult; requests: ApprovalRequest[] }> {
  const refund = defineTool({
    name: 'refund',
    description: 'Refund an order',
    parameters: z.object({ order: z.string(), amount: z.number() }),
    needsApproval: ({ amount }) => amount > 50,
    execute: ({ order, amount }) => `refunded ${amount} on ${order}`,
  })
  const support = defineTool({
    name: 'support_agent',
    description: 'Hands the case to a support agent (a nested exec)',
    parameters: z.object({ case: z.string() }),
    execute: async (args) => (await runtime.exec(`Handle ${args.case}`, { tools: [refund] })).text,
  })
  const provider = scripted([
    { content: [{ type: 'toolCall', name: 'support_agent', arguments: { case: 'A-17' } }] },
    { content: [{ type: 'toolCall', name: 'refund', arguments: { order: 'A-17', amount: 120 } }] },
    'Refund handled.',
    'The support agent refunded the order.',
  ])
  const requests: ApprovalRequest[] = []
  const runtime = new Runtime({
    provider,
    model: 'demo',
    // Anything async works here: a chat prompt, a ticket, a policy engine.
    approve: async (request) => {
      requests.push(request)
      return request.args.amount === 120
        ? { approved: true, args: { ...request.args, amount: 100 } }
        : { approved: false, reason: 'policy' }
    },
  })
  const run = runtime.exec('Customer A-17 wants a refund', { tools: [support] })
  for await (const event of run) {
    if (event.type === 'approval_required') {
      for (const a of event.approvals)
        log(`approval asked at depth ${a.depth} (path ${a.path.length} execs): ${a.toolName} ${JSON.stringify(a.args)}`)
    }
    if (event.type === 'tool_end')
      log(
        `${'  '.repeat(event.depth)}${event.toolName}: ${event.receipt.status} → ${JSON.stringify(event.result.content)}`,
      )
  }
  const result = await run
  log(`${result.status}: ${result.text}`)
  return { result, requests }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
