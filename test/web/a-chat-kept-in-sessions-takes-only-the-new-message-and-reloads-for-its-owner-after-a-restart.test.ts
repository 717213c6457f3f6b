import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DefaultChatTransport, type UIMessage } from 'ai'
import { afterAll, describe, expect, it } from 'vitest'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { sqliteSessions } from '@nestor/sessions/sqlite'
import { chatRoutes, toNodeListener } from '@nestor/web'
import { serve } from '../support/trip-web.js'
import { finalMessage } from '../support/ui-message.js'

const dir = mkdtempSync(join(tmpdir(), 'nestor-chat-sessions-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const ownerOf = (request: Request) => /(?:^|;\s*)session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1]

/** A chat server on a SQLite file: each answer says how many messages the model was sent. */
async function chatServer(path: string) {
  const store = sqliteSessions({ path })
  const provider = scripted((request) => `I was sent ${request.messages.length} messages`)
  const runtime = new Runtime({ provider, model: 'm', sessions: store })
  const bodies: unknown[] = []
  const chat = chatRoutes({
    runtime,
    owner: ownerOf,
    sessions: runtime.sessions,
    heartbeatMs: 0,
    start: ({ text, session, body }) => (bodies.push(body), runtime.exec(text, { session })),
  })
  const server = await serve(
    toNodeListener(async (request) => (await chat(request)) ?? new Response(null, { status: 404 })),
  )
  const send = async (user: string, text: string, id: string) => {
    // The AI SDK's documented way to post only the new message when the server keeps the chat.
    const transport = new DefaultChatTransport<UIMessage>({
      api: `${server.url}/api/chat`,
      headers: { cookie: `session=${user}` },
      prepareSendMessagesRequest: ({ id: chatId, messages }) => ({ body: { id: chatId, message: messages.at(-1) } }),
    })
    const message: UIMessage = { id, role: 'user', parts: [{ type: 'text', text }] }
    return finalMessage(
      await transport.sendMessages({
        chatId: 'trip',
        messages: [message],
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      }),
    )
  }
  const stored = async (user?: string) =>
    (await (
      await fetch(`${server.url}/api/chat/trip/messages`, { headers: user ? { cookie: `session=${user}` } : {} })
    ).json()) as UIMessage[]
  const post = async (user: string, text: string) =>
    (
      await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { cookie: `session=${user}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'trip', message: { id: 'x', role: 'user', parts: [{ type: 'text', text }] } }),
      })
    ).text()
  const close = async () => {
    await server.close()
    await store.close()
  }
  return { send, post, stored, bodies, close }
}

const texts = (messages: UIMessage[]) =>
  messages.map((m) => `${m.role}: ${m.parts.map((p) => (p.type === 'text' ? p.text : '')).join('')}`)

describe('chatRoutes({ sessions })', () => {
  it('the page posts only its new message; the stored chat reloads for its owner, after a restart too, and for nobody else', async () => {
    const path = join(dir, 'chats.db')
    const first = await chatServer(path)
    const reply1 = await first.send('alice', 'Plan Lisbon', 'u1')
    expect(reply1.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['I was sent 1 messages'])
    // The second post carries one message; the model still gets the whole conversation from the store.
    const reply2 = await first.send('alice', 'And Porto?', 'u2')
    expect(reply2.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['I was sent 3 messages'])
    expect(first.bodies.map((b) => 'message' in (b as object) && !('messages' in (b as object)))).toEqual([true, true])
    const conversation = [
      'user: Plan Lisbon',
      'assistant: I was sent 1 messages',
      'user: And Porto?',
      'assistant: I was sent 3 messages',
    ]
    expect(texts(await first.stored('alice'))).toEqual(conversation)
    expect(await first.stored('mallory')).toEqual([])
    expect(await first.stored()).toEqual([])
    await first.close()

    const restarted = await chatServer(path)
    expect(texts(await restarted.stored('alice'))).toEqual(conversation)
    expect(await restarted.stored('mallory')).toEqual([])
    const reply3 = await restarted.send('alice', 'Thanks', 'u3')
    expect(reply3.parts.filter((p) => p.type === 'text').map((p) => p.text)).toEqual(['I was sent 5 messages'])
    // Mallory posting to Alice's chat id is refused like an unknown session, and sees none of it.
    const refused = await restarted.post('mallory', 'let me read it')
    expect(refused).toContain('no session trip')
    expect(refused).not.toContain('Lisbon')
    expect(texts(await restarted.stored('alice'))).toHaveLength(6)
    expect(await restarted.stored('mallory')).toEqual([])
    await restarted.close()
  })
})
