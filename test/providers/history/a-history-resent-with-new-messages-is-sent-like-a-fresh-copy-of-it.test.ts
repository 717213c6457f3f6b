import type { Message, Provider } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { anthropic, gemini, openai, openaiCompatible } from '@nestor/providers'
import { toGeminiContents } from '@nestor/providers/gemini'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scenario as anthropicScenario } from '../../support/anthropic-wire.js'
import { scenario as geminiScenario } from '../../support/gemini-wire.js'
import { image, pdfUrl } from '../../support/media-parts.js'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import * as chat from '../wire/openai/chat-scenarios.js'
import * as responses from '../wire/openai/responses-scenarios.js'

// Adapters convert a resent history incrementally (only the messages after what the previous call
// converted). Each request here is compared with the same request made from a structuredClone of
// its history: fresh objects that no memo has seen, so that body is a conversion from scratch.

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
const user = (text: string): Message => ({ role: 'user', content: text })

const adapters: { name: string; provider: string; make: (url: string) => Provider }[] = [
  { name: 'openai chat', provider: 'openai', make: (url) => openai({ apiKey: 'k', baseURL: `${url}/v1` }) },
  {
    name: 'openai responses',
    provider: 'openai',
    make: (url) => openai({ apiKey: 'k', baseURL: `${url}/v1`, api: 'responses' }),
  },
  {
    name: 'anthropic',
    provider: 'anthropic',
    make: (url) => anthropic({ apiKey: 'k', baseURL: url, cacheControl: true }),
  },
  { name: 'gemini', provider: 'gemini', make: (url) => gemini({ apiKey: 'k', baseURL: url }) },
  {
    // Past calls and results rendered as text (reused per message), then the chat conversion.
    name: 'openai-compatible text protocol',
    provider: 'openai-compatible',
    make: (url) => openaiCompatible({ baseURL: `${url}/v1`, toolProtocol: 'text' }),
  },
]

/** One tool round: a signed thought, text and a call from `provider`, then its result (with an image). */
function round(i: number, provider: string, withImage = true): Message[] {
  return [
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: `why ${i}`, signature: `sig-${i}` },
        { type: 'text', text: `Looking ${i}.` },
        { type: 'toolCall', id: `call_${i}`, name: 'plot', arguments: { n: i }, providerData: { itemId: `fc_${i}` } },
      ],
      stopReason: 'toolUse',
      usage,
      provider,
      model: 'm',
    },
    {
      role: 'toolResult',
      toolCallId: `call_${i}`,
      toolName: 'plot',
      content: withImage ? [{ type: 'text', text: `plot ${i}` }, image] : [{ type: 'text', text: `plot ${i}` }],
      isError: false,
    },
  ]
}

const answer = (text: string, provider: string): Message => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
  stopReason: 'stop',
  usage,
  provider,
  model: 'm',
})

describe.each(adapters)('$name: a resent history', ({ name, provider: providerName, make }) => {
  let server: WireServer
  let provider: Provider
  beforeAll(async () => {
    server = await startWireServer()
    server.fallback = (request) => ({
      body: request.url.includes('/chat/completions')
        ? chat.text()
        : request.url.includes('/responses')
          ? responses.textAnswer()
          : request.url.includes('/messages')
            ? anthropicScenario('text.sse')
            : geminiScenario('text.three-chunks.sse'),
    })
    provider = make(server.url)
  })
  afterAll(() => server.close())

  /** The body the provider sends for this history. */
  async function sent(messages: Message[], system = 'Be brief.'): Promise<unknown> {
    const request: ModelRequest = { model: 'gemini-2.5-flash', messages, tools: [], system }
    for await (const event of provider.stream(request)) {
      if (event.type === 'error') throw new Error(event.error.message)
    }
    return server.requests.at(-1)?.json
  }
  const sameAsFresh = async (messages: Message[], system?: string) =>
    expect(await sent(messages, system)).toEqual(await sent(structuredClone(messages), system))

  it('is sent like a fresh copy at every turn of a conversation that grows in place', async () => {
    const history: Message[] = [user('Plot things.')]
    await sameAsFresh(history)
    for (let i = 0; i < 4; i++) {
      history.push(...round(i, providerName, i % 2 === 0))
      await sameAsFresh(history)
      history.push(answer(`Done ${i}.`, providerName), user(`And ${i + 1}?`))
      await sameAsFresh(history)
    }
  })

  it('is sent like a fresh copy when a run of tool results grows one result at a time', async () => {
    const [call, first] = round(0, providerName)
    const [, second] = round(1, providerName)
    const history: Message[] = [user('Two plots.'), call!, first!]
    await sameAsFresh(history)
    history.push(second!)
    await sameAsFresh(history)
    history.push(answer('Both done.', providerName))
    await sameAsFresh(history)
    // Cut inside the run, then grown back.
    await sameAsFresh(history.slice(0, 3))
    await sameAsFresh(history)
  })

  it('is sent like a fresh copy when given as a new array, shorter, rewritten or with another system prompt', async () => {
    const base: Message[] = [user('Plot things.'), ...round(0, providerName), answer('Done.', providerName)]
    for (let i = 1; i < 5; i++)
      base.push(user(`More ${i}?`), ...round(i, providerName), answer(`Done ${i}.`, providerName))
    await sameAsFresh(base)
    // A new array sharing the prefix, as each new exec makes from its history.
    await sameAsFresh([...base, user('One more?')])
    await sameAsFresh([...base, user('Another one?')])
    // Shorter: cut inside a run (after the call), then after the result.
    await sameAsFresh(base.slice(0, 6))
    await sameAsFresh(base.slice(0, 7))
    // A message replaced in the middle by another object; the rest is the same objects.
    const rewritten = [...base]
    rewritten[4] = user('A different question.')
    await sameAsFresh(rewritten)
    const withoutImage = [...base]
    withoutImage[6] = {
      ...(base[6] as Extract<Message, { role: 'toolResult' }>),
      content: [{ type: 'text', text: 'x' }],
    }
    await sameAsFresh(withoutImage)
    await sameAsFresh(base)
    await sameAsFresh(base, 'Be thorough.')
    await sameAsFresh(base, '')
  })

  it('is sent like a fresh copy around an assistant message with nothing to replay', async () => {
    // Another provider's thinking is dropped: the message converts to nothing and its
    // neighbours may merge (Anthropic) or meet (Chat).
    const empty: Message = {
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'elsewhere', signature: 'foreign' }],
      stopReason: 'stop',
      usage,
      provider: 'another-provider',
      model: 'm',
    }
    const history: Message[] = [user('One.'), empty]
    await sameAsFresh(history)
    history.push(user('Two.'))
    await sameAsFresh(history)
    history.push(...round(0, providerName), empty, answer('Done.', providerName))
    await sameAsFresh(history)
  })

  it('a history that one call refused still converts like a fresh copy afterwards', async () => {
    const history: Message[] = [user('Plot.'), ...round(0, providerName)]
    await sameAsFresh(history)
    const refused = [...history, { ...user('x'), content: [{ type: 'text' as const, text: 'see' }, pdfUrl] } as Message]
    // Chat Completions takes no file by URL; the others take it and the request goes out.
    if (name === 'openai chat' || name === 'openai-compatible text protocol')
      await expect(sent(refused)).rejects.toThrow(/messages\[3\]\.content\[1\]/)
    else await sameAsFresh(refused)
    history.push(answer('Done.', providerName))
    await sameAsFresh(history)
  })
})

describe('toGeminiContents (the one converter that is public)', () => {
  it('never changes an array it returned, while later calls reuse its contents', () => {
    const history: Message[] = [user('Plot.'), ...round(0, 'gemini')]
    const first = toGeminiContents(history, 'gemini')
    const snapshot = structuredClone(first)
    history.push(...round(1, 'gemini'))
    const second = toGeminiContents(history, 'gemini')
    toGeminiContents(history.slice(0, 2), 'gemini')
    expect(first).toEqual(snapshot)
    expect(second).not.toBe(first)
    expect(second.slice(0, 2)).toEqual(first.slice(0, 2))
    expect(second).toEqual(toGeminiContents(structuredClone(history), 'gemini'))
  })
})
