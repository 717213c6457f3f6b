// @nestor/mcp from the packed tarball: a Nestor tool and an agent served over this process's stdio.
import { Runtime, defineTool } from '@nestor/core'
import { Agent } from '@nestor/agents'
import { serveMcp } from '@nestor/mcp'
import { scripted } from '@nestor/providers/testing'
import { z } from 'zod'

const shout = defineTool({
  name: 'shout',
  description: 'Upper-case a text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
})
class Greeter extends Agent {
  instructions = 'You greet people.'
}
const runtime = new Runtime({ provider: scripted(['hello from a nested exec']), model: 'test' })
await serveMcp(
  { runtime, tools: [shout], agents: [{ name: 'greeter', description: 'Greets', agent: new Greeter() }] },
  'stdio',
)
