import { DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import { ApprovalGate, chatRoutes, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'
import { finalMessage } from '../support/ui-message.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

const sessionOf = (request: Request) => /(?:^|;\s*)session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1]
const question: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Plan a trip to Lisbon' }] }

async function chatServer() {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve, paceMs: 1 })
  const chat = chatRoutes({ runtime, owner: sessionOf, start: () => startTrip(runtime), heartbeatMs: 0 })
  const runs = runRoutes({ runtime, owner: sessionOf, approvals: gate, prefix: '/api/runs' })
  const { url, close } = await serve(toNodeListener(async (request) => (await chat(request)) ?? runs(request)))
  closers.push(close)
  const transport = (user: string) =>
    new DefaultChatTransport<UIMessage>({ api: `${url}/api/chat`, headers: { cookie: `session=${user}` } })
  /** Alice's one run once it waits for its approval (the tree and the approval are streamed by then). */
  const waitingRun = async () => {
    for (;;) {
      const listed = (await (await fetch(`${url}/api/runs`, { headers: { cookie: 'session=alice' } })).json()) as {
        runs: { execId: string }[]
      }
      const execId = listed.runs[0]?.execId
      if (execId && gate.pending(execId).length > 0) return execId
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  return { url, gate, runtime, transport, waitingRun }
}

describe('useChat({ resume: true }) against chatRoutes, through the AI SDK transport', () => {
  it('a client that reconnects mid-run, even one that left again, ends with the same message as one that never left', async () => {
    const { url, transport, waitingRun } = await chatServer()
    const alice = transport('alice')
    const stayed = finalMessage(
      await alice.sendMessages({
        chatId: 'chat-1',
        messages: [question],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      }),
    )
    const execId = await waitingRun()

    // A reload that leaves again after a few chunks…
    const left = (await alice.reconnectToStream({ chatId: 'chat-1' })) as ReadableStream<UIMessageChunk>
    const reader = left.getReader()
    for (let i = 0; i < 5; i++) await reader.read()
    await reader.cancel()
    // …and the reload that stays.
    const reloaded = await alice.reconnectToStream({ chatId: 'chat-1' })
    expect(reloaded).not.toBeNull()
    const resumed = finalMessage(reloaded as ReadableStream<UIMessageChunk>)

    expect(
      (
        await fetch(
          `${url}/api/runs/${execId}/approve`,
          jsonPost({ toolCallId: 'call_save' }, { cookie: 'session=alice' }),
        )
      ).status,
    ).toBe(202)
    const [never, again] = await Promise.all([stayed, resumed])
    expect(again).toEqual(never)
    const parts = never.parts as (UIMessage['parts'][number] & {
      id?: string
      data?: { depth?: number; status?: string }
    })[]
    expect(
      parts
        .filter((p) => p.type === 'data-exec')
        .map((p) => p.data?.depth)
        .sort(),
    ).toEqual([1, 1, 2, 2])
    expect(parts.find((p) => p.type === 'data-approval')?.data).toMatchObject({ status: 'approved' })
    // No part twice: data parts are unique by id, text parts appear once each.
    const dataIds = parts.filter((p) => p.type.startsWith('data-')).map((p) => `${p.type}:${p.id}`)
    expect(new Set(dataIds).size).toBe(dataIds.length)

    // Once the run ended there is nothing live to resume: 204, which the transport reads as null.
    expect(await alice.reconnectToStream({ chatId: 'chat-1' })).toBeNull()
  })

  it("another user's reconnect to the same chat id, and a chat nobody started, get 204: nothing live for them", async () => {
    const { gate, transport, waitingRun } = await chatServer()
    const alice = transport('alice')
    const stream = await alice.sendMessages({
      chatId: 'chat-2',
      messages: [question],
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    })
    const whole = finalMessage(stream)
    const execId = await waitingRun()
    expect(await transport('mallory').reconnectToStream({ chatId: 'chat-2' })).toBeNull()
    expect(await alice.reconnectToStream({ chatId: 'chat-nobody-started' })).toBeNull()
    gate.decide(execId, 'call_save', { approved: true })
    await whole
  })

  it('refuses authorize without owner at construction: authorize names no one to keep chats apart by', () => {
    const runtime = tripRuntime()
    const start = () => startTrip(runtime)
    expect(() => chatRoutes({ runtime, authorize: () => true, start } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('chatRoutes needs owner') }),
    )
    expect(() => chatRoutes({ runtime, authorize: () => true, owner: () => 'me', start })).not.toThrow()
  })

  it('answers a transport POST that is not a chat with 400, and a POST that is not JSON with 415', async () => {
    const { url } = await chatServer()
    const cookie = { cookie: 'session=alice' }
    const missing = await fetch(`${url}/api/chat`, jsonPost({ id: 'c', messages: [] }, cookie))
    expect(missing.status).toBe(400)
    const long = await fetch(`${url}/api/chat`, jsonPost({ id: 'c'.repeat(201), messages: [question] }, cookie))
    expect(long.status).toBe(400)
    const form = await fetch(`${url}/api/chat`, { method: 'POST', headers: cookie, body: 'id=c' })
    expect(form.status).toBe(415)
  })
})
