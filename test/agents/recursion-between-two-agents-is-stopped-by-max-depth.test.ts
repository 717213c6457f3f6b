import { Agent, tool } from '@nestor/agents'
import { Runtime, type EventOf } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, lastToolResult } from '../support/agent-runs.js'

/** Two relays that hand every question to each other: an unbounded recursion without maxDepth. */
class Relay extends Agent {
  instructions = 'You relay questions.'
  partner?: Relay

  @tool({ description: 'Ask the partner agent', parameters: z.object({ question: z.string() }) })
  async delegate({ question }: { question: string }) {
    const partner = this.partner!
    const result = await partner.exec(question, { tools: [partner.delegate] })
    if (result.status !== 'completed') throw result.error
    return result.text
  }
}

// Every exec delegates once, then answers with what came back (an error text included).
const provider = () =>
  scripted((request) => (lastToolResult(request) === undefined ? call('delegate', { question: 'why?' }) : 'gave up'))

describe('two agents calling each other', () => {
  it('stop at maxDepth: the exec one level too deep fails max_depth without a model call, and that surfaces up the stream', async () => {
    const alice = new Relay()
    const bob = new Relay()
    alice.partner = bob
    bob.partner = alice
    const p = provider()
    const runtime = new Runtime({ provider: p, model: 'm', maxDepth: 3 })
    const { events, result } = await collect(runtime.exec('start', { tools: [alice.delegate] }))

    expect(result.status).toBe('completed')
    const refused = events.find(
      (e): e is EventOf<'agent_end'> => e.type === 'agent_end' && e.result.status === 'failed',
    )!
    expect(refused.depth).toBe(4)
    expect(refused.result.error).toMatchObject({ code: 'max_depth' })
    expect(refused.result.iterationsUsed).toBe(0)
    // Depths 0..3 each asked the model twice (delegate, then answer); depth 4 never did.
    expect(p.requests).toHaveLength(8)
    const failedCall = events.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.depth === 3)!
    expect(failedCall.isError).toBe(true)
    expect(failedCall.result.content[0]).toMatchObject({ text: expect.stringContaining('max depth 3') })
  })

  it('stop at maxDepth through asTool as well, with the agent-as-tool error naming the status', async () => {
    class Echo extends Agent {
      instructions = 'You echo.'
      other?: Echo
      @tool({ description: 'Ask again', parameters: z.object({ input: z.string() }) })
      async again({ input }: { input: string }) {
        return (await this.exec(input, { tools: [this.other!.asTool({ name: 'echo', description: 'Echo' })] })).text
      }
    }
    const a = new Echo()
    const b = new Echo()
    a.other = b
    b.other = a
    const p = scripted((request) => {
      if (lastToolResult(request) !== undefined) return 'done'
      return request.tools.some((t) => t.name === 'echo')
        ? call('echo', { input: 'again' })
        : call('again', { input: 'again' })
    })
    const runtime = new Runtime({ provider: p, model: 'm', maxDepth: 2 })
    const { events } = await collect(
      runtime.exec('start', { tools: [b.asTool({ name: 'echo', description: 'Echo' })] }),
    )

    // depth 0 root → 1 echo (b) → 2 b.again's exec → 3 echo (a): one past maxDepth 2.
    const refused = events.filter(
      (e): e is EventOf<'agent_end'> => e.type === 'agent_end' && e.result.error?.code === 'max_depth',
    )
    expect(refused.map((e) => e.depth)).toEqual([3])
    const echoAtTwo = events.find(
      (e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.depth === 2 && e.toolName === 'echo',
    )!
    expect(echoAtTwo.result.content[0]).toMatchObject({
      text: expect.stringContaining('agent echo failed: max depth 2'),
    })
  })
})
