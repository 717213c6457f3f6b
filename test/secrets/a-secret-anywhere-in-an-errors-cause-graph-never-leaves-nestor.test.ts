import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type ExecResult, type Provider } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

const SECRET = 'pw-7a1c-very-private'

/** Every string reachable from an error: message, stack, causes, aggregated errors, own fields. */
function graphText(value: unknown, seen = new Set<unknown>()): string {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null || seen.has(value)) return ''
  seen.add(value)
  const keys = new Set([
    ...Object.getOwnPropertyNames(value),
    ...(value instanceof Error ? ['message', 'stack', 'cause'] : []),
  ])
  let out = ''
  for (const key of keys) out += ` ${graphText((value as Record<string, unknown>)[key], seen)}`
  return out
}

/** An error whose secret hides at every depth of its graph, except its own message. */
function deepError(): Error {
  const inner = new Error(`db://user:${SECRET}@host refused`)
  const aggregate = new AggregateError(
    [inner, `plain ${SECRET}`, { url: `https://x/?k=${SECRET}` }],
    'every replica failed',
  )
  const error = new Error('connect failed', { cause: new Error('pool exhausted', { cause: aggregate }) })
  ;(error as Error & { detail: string }).detail = `last try with ${SECRET}`
  return error
}

function expectClean(result: ExecResult, events: AgentEvent[]): void {
  expect(result.status).toBe('failed')
  const end = events.at(-1) as Extract<AgentEvent, { type: 'agent_end' }>
  expect(end.type).toBe('agent_end')
  for (const error of [result.error, end.result.error]) {
    const text = graphText(error)
    // The graph is still there (the causes were kept), only the secret is gone.
    expect(text).toContain('every replica failed')
    expect(text).toContain('[REDACTED]')
    expect(text).not.toContain(SECRET)
  }
  for (const event of events) expect(JSON.stringify(event)).not.toContain(SECRET)
}

describe('a secret anywhere in an error graph', () => {
  it('a provider that throws an error with the secret in nested causes, an AggregateError and own fields leaves result.error and agent_end redacted', async () => {
    const provider: Provider = {
      name: 'custom',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw deepError()
      },
    }
    const runtime = new Runtime({ provider, model: 'm', secrets: [SECRET] })
    const { events, result } = await collect(runtime.exec('go'))
    expectClean(result, events)
  })

  it('an afterToolCall hook that throws with the secret in its message and causes leaves result.error and agent_end redacted', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echo', parameters: z.object({}), execute: () => 'ok' })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'echo', args: {} }), 'done']),
      model: 'm',
      secrets: [SECRET],
      hooks: {
        afterToolCall: () => {
          const error = deepError()
          error.message = `hook saw ${SECRET}`
          throw error
        },
      },
    })
    const run = runtime.exec('go', { tools: [echo] })
    const { events, result } = await collect(run)
    expectClean(result, events)
    expect(graphText(result.error)).toContain('hook saw [REDACTED]')
  })
})
