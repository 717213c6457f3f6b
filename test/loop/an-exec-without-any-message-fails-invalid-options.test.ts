import { NestorError, Runtime } from '@nestor/core'
import { describe, expect, it } from 'vitest'
import { text, useOpenAIWire } from '../support/openai-loop-wire.js'

function thrownBy(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  return undefined
}

describe('an exec without any message fails invalid_options', () => {
  const wire = useOpenAIWire()

  it.each([
    ['exec([], { history: [] })', (r: Runtime) => r.exec([], { history: [] })],
    ['exec([])', (r: Runtime) => r.exec([])],
  ])('%s throws invalid_options synchronously and sends nothing', async (_label, start) => {
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const error = thrownBy(() => start(runtime))
    expect(NestorError.isInstance(error)).toBe(true)
    expect((error as NestorError).code).toBe('invalid_options')
    expect((error as NestorError).message).toContain('input')
    await new Promise((r) => setTimeout(r, 20))
    expect(wire.server.requests).toHaveLength(0)
  })

  it('an empty input with a history to continue from is a valid exec', async () => {
    wire.server.enqueue({ body: text('Continued.') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const result = await runtime.exec([], { history: [{ role: 'user', content: 'earlier question' }] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('Continued.')
  })
})
