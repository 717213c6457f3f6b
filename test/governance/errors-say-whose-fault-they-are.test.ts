import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type Provider } from '@nestor/core'
import { anthropic, gemini, openai, scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})
const twoTurns = () => scripted([calls({ name: 'echo', args: { text: 'hi' }, id: 'c1' }), 'done'])

describe('a hook that throws', () => {
  it.each([
    [
      'prepareTurn',
      {
        prepareTurn: () => {
          throw new Error('prepare broke')
        },
      },
    ],
    [
      'beforeToolCall',
      {
        beforeToolCall: () => {
          throw new Error('before broke')
        },
      },
    ],
    [
      'afterToolCall',
      {
        afterToolCall: async () => {
          throw new Error('after broke')
        },
      },
    ],
  ] as const)('%s fails the exec as hook_error naming the hook, not provider_error', async (name, hooks) => {
    const result = await new Runtime({ provider: twoTurns(), model: 'm', hooks }).exec('go', { tools: [echo] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('hook_error')
    expect(result.error?.message).toContain(`the ${name} hook threw`)
  })
})

describe('a batch plan', () => {
  it('that is invalid throws invalid_options synchronously: a configuration error is never a rejected promise', () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'm' })
    let returned: unknown
    let error: unknown
    try {
      returned = runtime.runBatch([{ tool: 'missing', args: {} }], { tools: [echo] })
    } catch (caught) {
      error = caught
    }
    expect(returned).toBeUndefined()
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
    expect(() => runtime.runParallelBatch([{ itemKey: 'a', calls: [] }], { maxConcurrency: 0, tools: [echo] })).toThrow(
      /maxConcurrency/,
    )
  })
})

describe('a batch that runs', () => {
  it('resolves, never rejects, when a hook throws: the error is data beside the results', async () => {
    let seen = 0
    const runtime = new Runtime({
      provider: scripted([]),
      model: 'm',
      hooks: {
        beforeToolCall: () => {
          if (++seen >= 2) throw new Error('policy service down')
        },
      },
    })
    const batch = await runtime.runBatch(
      [
        { tool: 'echo', args: { text: 'a' } },
        { tool: 'echo', args: { text: 'b' } },
      ],
      { tools: [echo] },
    )
    // The call whose hook threw is answered without running: it has its result and receipt too.
    expect(batch.receipts.map((r) => r.status)).toEqual(['ok', 'skipped'])
    expect(batch.error?.code).toBe('hook_error')
    const lanes = await runtime.runParallelBatch(
      [{ itemKey: 'x', calls: [{ callKey: 'c', tool: 'echo', args: { text: 'c' } }] }],
      { maxConcurrency: 1, tools: [echo] },
    )
    expect(lanes.error?.code).toBe('hook_error')
  })
})

describe('a missing API key', () => {
  let server: WireServer
  const saved = { ...process.env }
  beforeAll(async () => {
    server = await startWireServer()
    for (const key of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'])
      delete process.env[key]
  })
  afterAll(async () => {
    Object.assign(process.env, saved)
    await server.close()
  })

  it.each([
    // OpenAI's own API (no baseURL): a server at a baseURL may take no key, so none is required there
    // (test/providers/openai/failures-are-retried-or-reported-never-thrown.test.ts).
    ['openai', () => openai()],
    ['openai responses', () => openai({ api: 'responses' })],
    ['anthropic', () => anthropic({ baseURL: server.url })],
    ['gemini', () => gemini({ baseURL: server.url })],
  ] as [string, () => Provider][])(
    '%s: the exec fails invalid_options, with no request sent and no retry',
    async (_name, make) => {
      const before = server.requests.length
      const runtime = new Runtime({ provider: make(), model: 'm' })
      const events: string[] = []
      runtime.on('*', (e) => events.push(e.type))
      const result = await runtime.exec('hi')
      expect(result.status).toBe('failed')
      expect(result.error?.code).toBe('invalid_options')
      expect(events).not.toContain('retry')
      expect(server.requests.length).toBe(before)
    },
  )
})
