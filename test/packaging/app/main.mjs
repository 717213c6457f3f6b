// Runs inside a fresh npm app that installed the packed tarballs: a tool, a nested exec, streamed
// events, scripted() from the testing subpath, the package roots, and the openai adapter's lazy SDK.
import { Runtime, defineTool, exec } from '@nestor/core'
import * as providersRoot from '@nestor/providers'
import { openai } from '@nestor/providers/openai'
import { scripted } from '@nestor/providers/testing'
import { Agent } from '@nestor/agents'
import { z } from 'zod'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number().describe('first'), b: z.number() }),
  execute: ({ a, b }) => a + b,
})
const delegate = defineTool({
  name: 'delegate',
  description: 'Ask a helper that can add',
  parameters: z.object({ question: z.string() }),
  execute: async ({ question }) => (await exec(question, { tools: [add] })).text,
})

// One script for both levels: the outer loop delegates, the nested loop adds.
const provider = scripted([
  { content: [{ type: 'toolCall', name: 'delegate', arguments: { question: '2 + 3?' } }] },
  { content: [{ type: 'toolCall', name: 'add', arguments: { a: 2, b: 3 } }] },
  'The sum is 5.',
  'The helper says: the sum is 5.',
])
const run = new Runtime({ provider, model: 'test' }).exec('Ask the helper for 2 + 3', { tools: [delegate] })
const toolEnds = []
let textDeltas = 0
for await (const event of run) {
  if (event.type === 'tool_end') toolEnds.push({ name: event.toolName, depth: event.depth, isError: event.isError })
  if (event.type === 'message_delta' && event.delta.kind === 'text') textDeltas++
}
const result = await run

// The openai adapter loads its SDK on the first call; nothing listens on port 9, so the call fails
// as a network error, classified with the SDK's own error classes.
const offline = await new Runtime({
  provider: openai({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0 }),
  model: 'gpt-test',
}).exec('hi')

console.log(
  JSON.stringify({
    status: result.status,
    text: result.text,
    requests: provider.requests.length,
    toolEnds,
    textDeltas,
    addParameters: add.spec.parameters,
    rootExports: ['openai', 'anthropic', 'gemini', 'openaiCompatible', 'scripted', 'replay'].filter(
      (n) => typeof providersRoot[n] === 'function',
    ),
    agentIsClass: typeof Agent === 'function',
    openaiError: { status: offline.status, code: offline.error?.code, message: offline.error?.message },
  }),
)
