// @nestor/agents from the packed tarball: a class whose @tool method (a TC39 decorator, compiled
// by tsc for es2022 as docs/packaging.md recommends) the scripted model calls in an exec.
import { Agent, tool } from '@nestor/agents'
import { scripted } from '@nestor/providers/testing'
import { z } from 'zod'

class Calculator extends Agent {
  override instructions = 'You add numbers with the add tool.'

  @tool({ description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }) })
  add({ a, b }: { a: number; b: number }) {
    return a + b
  }
}

const provider = scripted([{ content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 3 } }] }, 'It is 5.'])
const run = new Calculator({ provider, model: 'test' }).exec('2 + 3?')
const toolEnds: { name: string; isError: boolean }[] = []
for await (const event of run)
  if (event.type === 'tool_end') toolEnds.push({ name: event.toolName, isError: event.isError })
const result = await run
const answered = provider.requests[1]?.messages.find((m) => m.role === 'toolResult')
console.log(
  JSON.stringify({
    status: result.status,
    text: result.text,
    offered: provider.requests[0]?.tools.map((t) => t.name),
    instructions: provider.requests[0]?.system,
    toolEnds,
    toolResult: answered?.role === 'toolResult' ? answered.content : undefined,
  }),
)
