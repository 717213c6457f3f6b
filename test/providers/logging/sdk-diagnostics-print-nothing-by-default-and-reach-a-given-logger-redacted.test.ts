import { Runtime, type Provider } from '@nestor/core'
import { anthropic, openai, type ProviderLogEntry } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sse, startWireServer, type WireServer } from '../../support/wire-server.js'

const KEY = 'sk-logtest-api-key-5e6f'
const SECRET = 'runtime-secret-8d7c'

/** A stream whose second event is cut mid-JSON, carrying the key and a runtime secret. */
const openaiBody = () =>
  sse([
    {
      data: {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'm',
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
      },
    },
  ]) + `data: {"id":"c1","choices":[{"index":0,"delta":{"content":"${KEY} ${SECRET}"\n\n`
const anthropicBody = () =>
  sse([
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'm1',
          type: 'message',
          role: 'assistant',
          model: 'm',
          content: [],
          stop_reason: null,
          usage: { input_tokens: 1, output_tokens: 0 },
        },
      },
    },
  ]) +
  `event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"${KEY} ${SECRET}"\n\n`

describe('SDK diagnostics', () => {
  let wire: WireServer
  const printed: string[] = []
  beforeEach(async () => {
    wire = await startWireServer()
    printed.length = 0
    for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation(
        (...args: unknown[]) => void printed.push(args.map(String).join(' ')),
      )
    }
    const write = process.stderr.write.bind(process.stderr)
    vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
      printed.push(String(chunk))
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest)
    }) as typeof process.stderr.write)
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await wire.close()
  })

  const cases: [string, (logger?: { log(e: ProviderLogEntry): void; secrets?: string[] }) => Provider, () => string][] =
    [
      [
        'openai',
        (logger) => openai({ baseURL: `${wire.url}/v1`, apiKey: KEY, maxRetries: 0, ...(logger && { logger }) }),
        openaiBody,
      ],
      [
        'anthropic',
        (logger) => anthropic({ baseURL: wire.url, apiKey: KEY, maxRetries: 0, ...(logger && { logger }) }),
        anthropicBody,
      ],
    ]

  it.each(cases)(
    '%s: a malformed chunk carrying secrets prints nothing to the console or stderr by default, and the exec fails as data',
    async (_name, make, body) => {
      wire.enqueue({ body: body() })
      const result = await new Runtime({ provider: make(), model: 'm', secrets: [SECRET] }).exec('hi')
      expect(result.status).toBe('failed')
      expect(
        printed.filter((line) => line.includes(KEY) || line.includes(SECRET) || /parse|chunk/i.test(line)),
      ).toEqual([])
    },
  )

  it.each(cases)(
    '%s: with a logger, the SDK diagnostics reach it with the API key and the given secrets redacted, and nothing is printed',
    async (_name, make, body) => {
      wire.enqueue({ body: body() })
      const entries: ProviderLogEntry[] = []
      await new Runtime({
        provider: make({ log: (e) => entries.push(e), secrets: [SECRET] }),
        model: 'm',
        secrets: [SECRET],
      }).exec('hi')
      expect(entries.length).toBeGreaterThan(0)
      expect(entries.every((e) => e.level === 'error')).toBe(true)
      const text = entries.map((e) => e.message).join('\n')
      expect(text).toContain('Could not parse')
      expect(text).toContain('[REDACTED] [REDACTED]')
      expect(text).not.toContain(KEY)
      expect(text).not.toContain(SECRET)
      expect(printed.filter((line) => line.includes(KEY) || line.includes(SECRET))).toEqual([])
    },
  )
})
