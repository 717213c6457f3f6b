// Type-checked under moduleResolution node16 (skipLibCheck off) and bundler, in an app that
// has only the openai SDK: the subpaths it imports must resolve their types completely.
import { Runtime, defineTool, type AgentEvent, type ExecResult } from '@nestor/core'
// The one import of the older `provider-kit` name (an alias of `integration-kit`): apps may still use it.
import type { ModelRequest } from '@nestor/core/provider-kit'
import type { AgentOptions } from '@nestor/agents'
import { openai, type OpenAIProviderOptions } from '@nestor/providers/openai'
import { scripted, type ScriptedTurn } from '@nestor/providers/testing'
// The root entry, as the docs import it: its declarations need no SDK but the ones installed.
import { scripted as rootScripted, openai as rootOpenAI } from '@nestor/providers'
import { z } from 'zod'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  // The arguments are inferred from the zod schema: a and b are numbers here.
  execute: ({ a, b }) => {
    const sum: number = a + b
    return sum
  },
})

const turns: ScriptedTurn[] = ['hi']
const options: OpenAIProviderOptions = { apiKey: 'sk-test' }
const agentOptions: Partial<AgentOptions> = {}
export const providers = [scripted(turns), openai(options), rootScripted(turns), rootOpenAI(options)]
export const firstModel = (request: ModelRequest): string => request.model

export async function main(): Promise<ExecResult> {
  const run = new Runtime({ provider: providers[0]!, model: 'test' }).exec('2 + 3?', { tools: [add] })
  for await (const event of run as AsyncIterable<AgentEvent>) if (event.type === 'message_delta') void event.delta
  void agentOptions
  return run
}
