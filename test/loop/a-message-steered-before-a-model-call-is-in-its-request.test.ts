import { Runtime, type ExecRun } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { sentMessages, text, useOpenAIWire } from '../support/openai-loop-wire.js'

const contents = (messages: { role: string; content: unknown }[]) =>
  messages.filter((m) => m.role === 'user').map((m) => m.content)

describe('a message steered before a model call is in its request', () => {
  const wire = useOpenAIWire()

  it('steered right after exec() returns: in the first request', async () => {
    wire.server.enqueue({ body: text('Both seen.') })
    const run = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' }).exec('first')
    run.steer('second')
    const result = await run
    expect(result.status).toBe('completed')
    expect(wire.server.requests).toHaveLength(1)
    expect(contents(sentMessages(wire.server, 0))).toEqual(['first', 'second'])
  })

  it('steered while prepareTurn is awaited: in the request it prepares', async () => {
    wire.server.enqueue({ body: text('Both seen.') })
    let run: ExecRun | undefined
    const runtime = new Runtime({
      provider: wire.provider(),
      model: 'gpt-4o-mini',
      hooks: {
        prepareTurn: async () => {
          await new Promise((r) => setTimeout(r, 10))
          run?.steer('during prepare')
          return undefined
        },
      },
    })
    run = runtime.exec('first')
    await run
    expect(wire.server.requests).toHaveLength(1)
    expect(contents(sentMessages(wire.server, 0))).toEqual(['first', 'during prepare'])
  })

  it('steered from a turn_start listener: in that turn’s request', async () => {
    wire.server.enqueue({ body: text('Both seen.') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    let run: ExecRun | undefined
    runtime.on('turn_start', () => run?.steer('from a listener'))
    run = runtime.exec('first')
    const result = await run
    expect(wire.server.requests).toHaveLength(1)
    expect(contents(sentMessages(wire.server, 0))).toEqual(['first', 'from a listener'])
    expect(result.history.map((m) => m.role)).toEqual(['user', 'user', 'assistant'])
  })
})
