// Control envelopes: a tool's result status decides whether the loop (or a batch lane) goes on.
// A stop status, or a result the envelope cannot read, ends the exec with `stopped` set.
// Run: npx tsc -b && node examples/dist/governance/control-envelopes.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult, type ParallelBatchResult } from '@nestor/core'
import { scripted } from '@nestor/providers'

const outcomes: Record<string, unknown> = {
  api: { state: 'deployed' },
  web: { state: 'blocked', error: { message: 'migration pending', ticket: 'OPS-12' } },
  jobs: { state: 'deployed' },
}

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ result: ExecResult; batch: ParallelBatchResult; deployed: string[] }> {
  const deployed: string[] = []
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys one service',
    parameters: z.object({ service: z.string() }),
    control: {
      statusField: 'state',
      continueStatuses: ['deployed'],
      stopStatuses: ['blocked'],
      diagnosis: { why: 'error.message', ticket: 'error.ticket' },
    },
    execute: ({ service }) => {
      deployed.push(service)
      return outcomes[service]
    },
  })
  const turn = (service: string) => ({
    content: [{ type: 'toolCall' as const, id: service, name: 'deploy', arguments: { service } }],
  })
  const runtime = new Runtime({
    provider: scripted([turn('api'), turn('web'), turn('jobs'), 'All three are live.']),
    model: 'scripted',
  })

  // The model would go on to `jobs`; the envelope stops the exec at `web` instead.
  const result = await runtime.exec('Deploy api, web and jobs', { tools: [deploy] })
  log(`exec: ${result.status}, stopped: ${result.stopped?.reason} at ${result.stopped?.toolCallId}`)
  log(`diagnosis: ${JSON.stringify(result.stopped?.control.diagnosis)}`)

  // In a batch only the lane whose call decided stop ends there.
  const batch = await runtime.runParallelBatch(
    ['web', 'jobs'].map((service) => ({
      itemKey: service,
      calls: [
        { callKey: 'deploy', tool: 'deploy', args: { service } },
        { callKey: 'verify', tool: 'deploy', args: { service: 'api' } },
      ],
    })),
    { maxConcurrency: 2, tools: [deploy] },
  )
  for (const lane of batch.lanes)
    log(
      `lane ${lane.itemKey}: ${lane.results.length} call(s)${lane.stopped ? `, stopped at ${lane.stopped.callKey}` : ''}`,
    )
  return { result, batch, deployed }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
