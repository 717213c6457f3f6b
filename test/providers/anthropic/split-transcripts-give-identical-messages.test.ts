import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync } from 'node:fs'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { anthropic } from '@nestor/providers'
import { collect, request, scenario } from '../../support/anthropic-wire.js'

/**
 * A real HTTP server that writes one body cut at exactly the given byte offsets, yielding to the
 * event loop between pieces so they leave as separate writes (cuts land inside UTF-8 sequences,
 * `event:`/`data:` lines and JSON tokens alike).
 */
async function startSplitServer() {
  let next: { body: Buffer; cuts: number[] } = { body: Buffer.alloc(0), cuts: [] }
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) void _
    const { body, cuts } = next
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' })
    let from = 0
    for (const to of [...cuts, body.length]) {
      res.write(body.subarray(from, to))
      from = to
      await new Promise((resolve) => setImmediate(resolve))
    }
    res.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (body: Buffer, cuts: number[]) => {
      next = { body, cuts }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const files = readdirSync(new URL('../wire/anthropic/', import.meta.url)).filter((f) => f.endsWith('.sse'))

describe('anthropic provider on transcripts split at random byte boundaries', () => {
  let server: Awaited<ReturnType<typeof startSplitServer>>
  beforeAll(async () => {
    server = await startSplitServer()
  })
  afterAll(() => server.close())

  const run = async (body: Buffer, cuts: number[]): Promise<ModelEvent[]> => {
    server.serve(body, cuts)
    // No retries: a split must never change the outcome, failures included.
    const provider = anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 })
    return (await collect(provider.stream(request()))).events
  }

  it('covers every committed scenario', () => {
    expect(files.length).toBeGreaterThanOrEqual(8)
  })

  for (const file of files) {
    it(`${file}: every split yields the same events and final message`, async () => {
      const body = Buffer.from(scenario(file), 'utf8')
      const reference = JSON.parse(JSON.stringify(await run(body, []))) as ModelEvent[]
      expect(reference.at(-1)?.type).toMatch(/done|error/)
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 48 }),
          async (offsets) => {
            const events = await run(
              body,
              [...offsets].sort((a, b) => a - b),
            )
            expect(JSON.parse(JSON.stringify(events))).toEqual(reference)
          },
        ),
        { numRuns: 12 },
      )
    })
  }
})
