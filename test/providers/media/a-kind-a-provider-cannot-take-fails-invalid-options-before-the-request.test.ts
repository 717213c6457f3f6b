import type { Provider } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { anthropic, bedrock, gemini, openai } from '@nestor/providers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, image, imageUrl, pdfUrl } from '../../support/media-parts.js'

describe('an image or file a provider cannot take fails invalid_options before any request, naming the part', () => {
  let server: WireServer
  beforeEach(async () => {
    server = await startWireServer()
  })
  afterEach(() => server.close())

  const cases: [
    string,
    () => Provider,
    Extract<import('@nestor/core').Message, { role: 'user' }>['content'],
    RegExp,
  ][] = [
    [
      'openai chat, a PDF by URL',
      () => openai({ apiKey: 'k', baseURL: `${server.url}/v1` }),
      [{ type: 'text', text: 'Read' }, pdfUrl],
      /messages\[0\]\.content\[1\] is a file by URL \(application\/pdf\): Chat Completions takes files only by data/,
    ],
    [
      'anthropic, a bmp image',
      () => anthropic({ apiKey: 'k', baseURL: server.url }),
      [{ ...image, mimeType: 'image/bmp' }],
      /messages\[0\]\.content\[0\] is an image by data \(image\/bmp\)/,
    ],
    [
      'anthropic, a CSV file',
      () => anthropic({ apiKey: 'k', baseURL: server.url }),
      [{ type: 'file', data: 'YSxi', mimeType: 'text/csv' }],
      /messages\[0\]\.content\[0\] is a file by data \(text\/csv\)/,
    ],
    [
      'gemini, an image URL without a mimeType',
      () => gemini({ apiKey: 'k', baseURL: server.url }),
      [imageUrl],
      /messages\[0\]\.content\[0\] is an image by URL: Gemini needs a mimeType/,
    ],
    [
      'bedrock, an https image URL',
      () =>
        bedrock({ region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, endpoint: server.url }),
      [image, imageUrl],
      /messages\[0\]\.content\[1\] is an image by URL: Bedrock takes media by data or by s3:\/\/ URL only/,
    ],
  ]

  for (const [label, make, content, message] of cases) {
    it(label, async () => {
      // gemini() builds its request when stream() is called, so it throws there; the others end
      // their stream with an error event. Either way nothing reaches the server.
      let events: ModelEvent[] = []
      let error: unknown
      try {
        events = await collect(make().stream({ model: 'm', messages: [{ role: 'user', content }], tools: [] }))
        const last = events.at(-1)
        expect(last?.type).toBe('error')
        error = last && last.type === 'error' ? last.error : undefined
      } catch (thrown) {
        error = thrown
      }
      expect(error).toMatchObject({ code: 'invalid_options', message: expect.stringMatching(message) })
      expect(events.some((e) => e.type === 'retry')).toBe(false)
      expect(server.requests).toHaveLength(0)
    })
  }
})
