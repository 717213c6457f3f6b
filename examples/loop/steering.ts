// Steering and follow-up: messages queued while the loop runs.
// Run: npx tsc -b && node examples/dist/loop/steering.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult, type ExecRun } from '@nestor/core'
import { scripted } from '@nestor/providers'

export async function main(log: (line: string) => void = console.log): Promise<ExecResult> {
  let run: ExecRun | undefined
  const search = defineTool({
    name: 'search',
    description: 'Search',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      // A person changes their mind while the first search runs: the second call is skipped.
      if (q === 'cats') run?.steer('Actually, search for dogs instead.')
      return `results for ${q}`
    },
  })
  const provider = scripted([
    {
      content: [
        { type: 'toolCall', name: 'search', arguments: { q: 'cats' } },
        { type: 'toolCall', name: 'search', arguments: { q: 'kittens' } },
      ],
    },
    { content: [{ type: 'toolCall', name: 'search', arguments: { q: 'dogs' } }] },
    'Dogs it is.',
    'You are welcome.',
  ])
  run = new Runtime({ provider, model: 'demo' }).exec('Search for cats', { tools: [search] })
  run.followUp('Thanks!') // read only when the loop would otherwise end
  for await (const event of run) {
    if (event.type === 'tool_end')
      log(`${event.toolName}: ${event.receipt.status} ${JSON.stringify(event.result.content[0])}`)
    if (event.type === 'message_end' && event.message.role === 'user')
      log(`user: ${JSON.stringify(event.message.content)}`)
  }
  const result = await run
  log(`${result.status}: ${result.text} (${result.iterationsUsed}/${result.iterationBudget} iterations)`)
  return result
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
