import { Runtime, defineTool, type AgentEvent } from '@nestor/core'
import { openaiCompatible } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { textAnswer } from '../replay/chat-sse.js'
import { startLocalServer, type LocalServer } from './local-server.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})

describe('openaiCompatible text protocol: malformed blocks become invalid-arguments error results', () => {
  let server: LocalServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const cases: [string, string][] = [
    ['broken JSON', '```tool_call\n{"name": "add", "arguments": {"a": 2, "b": }}\n```'],
    ['arguments that are not an object', '```tool_call\n{"name": "add", "arguments": [2, 3]}\n```'],
    ['a block never closed before the stream ends', 'Adding.\n```tool_call\n{"name": "add", "arguments": {"a": 2'],
  ]
  for (const [what, reply] of cases) {
    it(`${what}: the call is never run, the loop answers with an error and goes on`, async () => {
      server = await startLocalServer(['completion'])
      server.chat(textAnswer([reply]), textAnswer(['Sorry, 5.']))
      let ran = 0
      const counted = defineTool({
        ...add.spec,
        parameters: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => String((ran++, a + b)),
      })
      const events: AgentEvent[] = []
      const run = new Runtime({ provider: openaiCompatible({ baseURL: `${server.url}/v1` }), model: 'm' }).exec('2+3', {
        tools: [counted],
      })
      for await (const event of run) events.push(event)
      const result = await run
      expect(ran).toBe(0)
      expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([['add', 'invalid_arguments']])
      const end = events.find((e) => e.type === 'tool_end')
      expect(end?.type === 'tool_end' && end.isError).toBe(true)
      expect(result.text).toBe('Sorry, 5.')
      // The model is told, in the protocol, that its call failed.
      const second = server.chatRequests()[1]?.json as { messages: { role: string; content: string }[] }
      expect(second.messages.at(-1)?.content).toMatch(/^Tool add failed:\ninvalid arguments for add/)
    })
  }
})
