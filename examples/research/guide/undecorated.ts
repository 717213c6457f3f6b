// docs/agents.md § Without decorators: defineAgentTools(Class, { method: options }).
// Run: npx tsc -b && node examples/dist/research/guide/undecorated.js
import { Agent, defineAgentTools } from '@nestor/agents'
import { Runtime, type ExecResult } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { isMain } from './run-as-script.js'

class Calculator extends Agent {
  instructions = 'You compute.'
  add({ a, b }: { a: number; b: number }) {
    return a + b
  }
}
// Checked against the method: a schema giving `a` as a string would not compile.
defineAgentTools(Calculator, {
  add: { description: 'Add two numbers', parameters: z.object({ a: z.number(), b: z.number() }) },
})

export async function main(log: (line: string) => void = console.log): Promise<ExecResult> {
  const provider = scripted([{ content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 40 } }] }, 'It is 42.'])
  const calculator = new Calculator()
  // A method reference works as a tool too, bound to its instance.
  const result = await new Runtime({ provider, model: 'demo' }).exec('2 + 40?', { tools: [calculator.add] })
  log(result.text)
  return result
}

if (isMain(import.meta.url)) await main()
