import { Agent, tool } from '@nestor/agents'
import { Runtime, type EventOf } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, lastToolResult } from '../support/agent-runs.js'

class FactChecker extends Agent {
  instructions = 'You check facts against sources.'

  @tool({ description: 'Look up a source', parameters: z.object({ claim: z.string() }) })
  lookup({ claim }: { claim: string }) {
    return claim.includes('Paris') ? 'source: Paris is the capital of France' : 'no source'
  }
}

// Requests of the fact checker carry its instructions as system; the root has none.
const provider = () =>
  scripted((request) => {
    const answer = lastToolResult(request)
    if (request.system === 'You check facts against sources.') {
      return answer === undefined ? call('lookup', { claim: 'Paris is the capital of France' }) : `verified (${answer})`
    }
    return answer === undefined ? call('check_fact', { input: 'Is Paris the capital of France?' }) : `answer: ${answer}`
  })

describe('agent.asTool()', () => {
  it('offers the whole agent as one tool with { input: string } parameters by default', async () => {
    const p = provider()
    const runtime = new Runtime({ provider: p, model: 'm' })
    await runtime.exec('q', { tools: [new FactChecker().asTool({ name: 'check_fact', description: 'Check a claim' })] })

    expect(p.requests[0]!.tools).toEqual([
      {
        name: 'check_fact',
        description: 'Check a claim',
        parameters: expect.objectContaining({
          type: 'object',
          properties: { input: expect.objectContaining({ type: 'string' }) },
          required: ['input'],
        }),
      },
    ])
  })

  it('runs a nested exec with the agent instructions and tools; its text is the tool result and its events stream up', async () => {
    const p = provider()
    const runtime = new Runtime({ provider: p, model: 'm' })
    const { events, result } = await collect(
      runtime.exec('q', { tools: [new FactChecker().asTool({ name: 'check_fact', description: 'Check a claim' })] }),
    )

    expect(result.text).toBe('answer: verified (source: Paris is the capital of France)')
    const child = p.requests.find((r) => r.system === 'You check facts against sources.')!
    expect(child.tools.map((t) => t.name)).toEqual(['lookup'])
    expect(child.messages[0]).toEqual({ role: 'user', content: 'Is Paris the capital of France?' })

    const childEvents = events.filter((e) => e.depth === 1)
    expect(childEvents.map((e) => e.type)).toEqual(
      expect.arrayContaining(['agent_start', 'tool_start', 'tool_end', 'agent_end']),
    )
    expect(childEvents.every((e) => e.parentExecId === result.execId)).toBe(true)
    const end = events.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.depth === 0)!
    expect(end.result.details).toMatchObject({ status: 'completed', execId: childEvents[0]!.execId })
  })

  it('maps custom parameters to the agent input through prompt()', async () => {
    const p = scripted((request) =>
      lastToolResult(request) === undefined && !request.system ? call('check', { claim: 'x', strict: true }) : 'ok',
    )
    const runtime = new Runtime({ provider: p, model: 'm' })
    const checker = new FactChecker().asTool({
      name: 'check',
      description: 'Check',
      parameters: z.object({ claim: z.string(), strict: z.boolean() }),
      prompt: ({ claim, strict }) => `${strict ? 'Strictly check' : 'Check'}: ${claim}`,
    })
    await runtime.exec('q', { tools: [checker] })
    expect(p.requests[1]!.messages[0]).toEqual({ role: 'user', content: 'Strictly check: x' })
  })

  it('turns a failed nested exec into an error tool result, and the parent goes on', async () => {
    const p = scripted((request) =>
      request.system
        ? { error: 'upstream down', status: 400 }
        : lastToolResult(request) === undefined
          ? call('check_fact', { input: 'x' })
          : 'recovered',
    )
    const runtime = new Runtime({ provider: p, model: 'm' })
    const { events, result } = await collect(
      runtime.exec('q', { tools: [new FactChecker().asTool({ name: 'check_fact', description: 'Check' })] }),
    )

    expect(result).toMatchObject({ status: 'completed', text: 'recovered' })
    const end = events.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.depth === 0)!
    expect(end.isError).toBe(true)
    expect(end.result.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('agent check_fact failed'),
    })
  })
})
