// The tool loop in its smallest form: one tool, a scripted model, events as they happen.
// Run: npx tsc -b && node examples/dist/loop/basic.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'

export async function main(log: (line: string) => void = console.log): Promise<ExecResult> {
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: async ({ a, b }) => a + b,
  })
  // The scripted provider plays assistant turns in order: first a tool call, then the answer.
  const provider = scripted([
    { content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 40 } }] },
    'The answer is 42.',
  ])
  const runtime = new Runtime({ provider, model: 'demo' })
  const run = runtime.exec('What is 2 + 40?', { tools: [add] })
  for await (const event of run) {
    if (event.type === 'turn_start') log(`turn ${event.iteration}/${event.iterationBudget}`)
    if (event.type === 'tool_end') log(`  ${event.toolName} → ${JSON.stringify(event.result.content)}`)
  }
  const result = await run
  log(`${result.status}: ${result.text}`)
  return result
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
