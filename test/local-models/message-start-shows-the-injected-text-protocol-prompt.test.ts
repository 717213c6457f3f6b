import { Runtime, defineTool, type AgentEvent, type EventOf } from '@nestor/core'
import { openaiCompatible } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { textAnswer } from '../replay/chat-sse.js'
import { startLocalServer, type LocalServer } from './local-server.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
})

/** The message_start events of the assistant's messages in one exec against `server` with `tools`. */
async function messageStarts(server: LocalServer, tools: (typeof add)[]): Promise<EventOf<'message_start'>[]> {
  server.chat(textAnswer(['4']))
  const runtime = new Runtime({ provider: openaiCompatible({ baseURL: `${server.url}/v1` }), model: 'm' })
  const run = runtime.exec('2+2?', { tools })
  const events: AgentEvent[] = []
  for await (const event of run) events.push(event)
  return events.filter(
    (e): e is EventOf<'message_start'> => e.type === 'message_start' && e.message.role === 'assistant',
  )
}

const systemSent = (server: LocalServer): string => {
  const body = server.chatRequests().at(-1)?.json as { messages: { role: string; content: string }[] }
  return body.messages.find((m) => m.role === 'system')?.content ?? ''
}

describe('message_start shows the prompt the text tool protocol injected', () => {
  let textOnly: LocalServer
  let native: LocalServer
  beforeAll(async () => {
    textOnly = await startLocalServer(['completion'])
    native = await startLocalServer(['completion', 'tools'])
  })
  afterAll(async () => {
    await textOnly.close()
    await native.close()
  })

  it('carries kind, length and the exact text the model got, for a model without native tools', async () => {
    const [start] = await messageStarts(textOnly, [add])
    const injected = start?.injectedPrompt
    expect(injected?.kind).toBe('text-tool-protocol')
    expect(injected?.text).toContain('```tool_call')
    expect(injected?.text).toContain('- add: Add two numbers')
    expect(injected?.length).toBe(injected?.text.length)
    expect(systemSent(textOnly)).toContain(injected!.text)
  })

  it('is absent when the model calls tools natively', async () => {
    const starts = await messageStarts(native, [add])
    expect(starts.length).toBeGreaterThan(0)
    for (const start of starts) expect(start.injectedPrompt).toBeUndefined()
  })

  it('is absent when the text-protocol model has no tools this call (nothing injected)', async () => {
    const starts = await messageStarts(textOnly, [])
    expect(starts.length).toBeGreaterThan(0)
    for (const start of starts) expect(start.injectedPrompt).toBeUndefined()
  })
})
