import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems, textOf } from '../support/run.js'

const counter = () => {
  const ran: string[] = []
  const mk = (name: string) =>
    defineTool({
      name,
      description: name,
      parameters: z.object({}).passthrough(),
      execute: () => {
        ran.push(name)
        return `${name} result`
      },
    })
  return { ran, a: mk('a'), b: mk('b') }
}
const toolResults = (h: { role: string }[]) => h.filter((m): m is ToolResultMessage => m.role === 'toolResult')

describe('loop control', () => {
  it('toolChoice and parallelToolCalls are passed to the provider request', async () => {
    const { a } = counter()
    const provider = scripted(['ok'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a], toolChoice: 'none', parallelToolCalls: false })
    expect(provider.requests[0]).toMatchObject({ toolChoice: 'none', parallelToolCalls: false })
  })

  it('a forced choice applies to one round and then falls back to auto (resetToolChoice default)', async () => {
    const { a } = counter()
    const provider = scripted([calls({ name: 'a' }), calls({ name: 'a', args: { again: 1 } }), 'done'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a], toolChoice: { type: 'function', name: 'a' } })
    expect(provider.requests.map((r) => r.toolChoice)).toEqual([{ type: 'function', name: 'a' }, 'auto', 'auto'])
  })

  it('with resetToolChoice false a forced choice stays', async () => {
    const { a } = counter()
    const provider = scripted([calls({ name: 'a' }), 'done'])
    await new Runtime({ provider, model: 'm', resetToolChoice: false }).exec('go', {
      tools: [a],
      toolChoice: 'required',
    })
    expect(provider.requests.map((r) => r.toolChoice)).toEqual(['required', 'required'])
  })

  it('prepareTurn changes model, visible tools, toolChoice and messages for one round only', async () => {
    const { a, b } = counter()
    const provider = scripted([calls({ name: 'a' }), 'done'])
    await new Runtime({
      provider,
      model: 'base',
      hooks: {
        prepareTurn: ({ iteration, messages }) =>
          iteration === 1
            ? {
                model: 'special',
                tools: ['a'],
                toolChoice: 'required',
                messages: [...messages, { role: 'user', content: 'hint' }],
              }
            : undefined,
      },
    }).exec('go', { tools: [a, b] })
    const [first, second] = provider.requests
    expect(first).toMatchObject({ model: 'special', toolChoice: 'required' })
    expect(first!.tools.map((t) => t.name)).toEqual(['a'])
    expect(first!.messages.map(textOf)).toEqual(['go', 'hint'])
    expect(second!.model).toBe('base')
    expect(second!.tools.map((t) => t.name)).toEqual(['a', 'b'])
    expect(second!.messages.map(textOf)).not.toContain('hint')
  })

  it('beforeToolCall may block a call with a reason; afterToolCall may replace a result', async () => {
    const { ran, a, b } = counter()
    const provider = scripted([calls({ name: 'a' }, { name: 'b' }), 'done'])
    const result = await new Runtime({
      provider,
      model: 'm',
      hooks: {
        beforeToolCall: (call) => (call.name === 'a' ? { block: true, reason: 'not today' } : undefined),
        afterToolCall: (_call, r) => ({ ...r, content: [{ type: 'text', text: 'rewritten' }] }),
      },
    }).exec('go', { tools: [a, b] })
    expect(ran).toEqual(['b'])
    expect(toolResults(result.history).map(textOf)).toEqual(['rewritten', 'rewritten'])
    expect(toolResults(result.history).map((r) => r.isError)).toEqual([true, false])
    expect(result.receipts[0]?.status).toBe('rejected')
  })

  it('a call to a stopAtTools tool ends the exec with its result as the output', async () => {
    const { ran, a, b } = counter()
    const provider = scripted([calls({ name: 'b' }, { name: 'a' }), 'never'])
    const result = await new Runtime({ provider, model: 'm', stopAtTools: ['b'] }).exec('go', { tools: [a, b] })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('b result')
    expect(ran).toEqual(['b'])
    expect(provider.requests).toHaveLength(1)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('tool calls of a message cut off by the length limit are answered with error results and never executed', async () => {
    const { ran, a } = counter()
    const provider = scripted([
      { content: [{ type: 'toolCall', name: 'a', arguments: { x: 1 } }], stopReason: 'length' },
      'done',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    expect(ran).toEqual([])
    const [r] = toolResults(result.history)
    expect(r?.isError).toBe(true)
    expect(textOf(r!)).toContain('length limit')
    expect(result.status).toBe('completed')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('history and system prompt reach the model; messages holds only what this exec added', async () => {
    const provider = scripted(['reply'])
    const history = [{ role: 'user' as const, content: 'earlier' }]
    const result = await new Runtime({ provider, model: 'm', system: 'be brief' }).exec('now', { history })
    expect(provider.requests[0]).toMatchObject({ system: 'be brief' })
    expect(provider.requests[0]!.messages.map(textOf)).toEqual(['earlier', 'now'])
    expect(result.messages.map(textOf)).toEqual(['now', 'reply'])
    expect(result.history.map(textOf)).toEqual(['earlier', 'now', 'reply'])
  })

  it('a provider error fails the exec with provider_error and keeps the history valid', async () => {
    const provider = scripted([calls({ name: 'a' }), { error: 'upstream exploded', status: 500 }])
    const { a } = counter()
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('provider_error')
    expect(result.error?.message).toBe('upstream exploded')
    expect(result.history.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error' })
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a provider that throws mid-stream is turned into a failed result, not a crash', async () => {
    const provider = {
      name: 'broken',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('socket hang up')
      },
    }
    const result = await new Runtime({ provider, model: 'm' }).exec('go')
    expect(result.status).toBe('failed')
    expect(result.error?.message).toBe('socket hang up')
  })
})
