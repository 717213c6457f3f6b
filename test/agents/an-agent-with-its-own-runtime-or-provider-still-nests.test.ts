import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, lastToolResult } from '../support/agent-runs.js'
import { directToolContext } from '../support/tool-context.js'

class Specialist extends Agent {
  instructions = 'You are the specialist.'

  @tool({ description: 'Consult the specialist', parameters: z.object({ question: z.string() }) })
  async consult({ question }: { question: string }) {
    return (await this.exec(question, { tools: [] })).text
  }

  // A private method is a tool of the instance too (it needs a name: '#' is not allowed in tool names).
  @tool({ name: 'secret_note', description: 'A private note', parameters: z.object({}) })
  // eslint-disable-next-line no-unused-private-class-members -- reached by the model as a tool
  #note() {
    return `private to ${this.instructions}`
  }
}

// The outer model always consults once, then repeats what it got.
const outer = () => scripted((request) => lastToolResult(request) ?? call('consult', { question: 'q' }))

describe('an agent with its own runtime or provider, called inside an exec', () => {
  it('runs on its own runtime (its provider and model) and still nests: depth 1 in the caller stream', async () => {
    const parentProvider = outer()
    const ownProvider = scripted(['from the specialist model'])
    const specialist = new Specialist({ runtime: new Runtime({ provider: ownProvider, model: 'big' }) })
    const { events, result } = await collect(
      new Runtime({ provider: parentProvider, model: 'small' }).exec('go', { tools: [specialist.consult] }),
    )

    expect(result.text).toBe('from the specialist model')
    expect(ownProvider.requests[0]).toMatchObject({ model: 'big', system: 'You are the specialist.' })
    expect(parentProvider.requests).toHaveLength(2)
    const child = events.find((e) => e.type === 'agent_start' && e.depth === 1)
    expect(child?.parentExecId).toBe(result.execId)
  })

  it('uses its own provider with the inherited model when it has a provider but no runtime', async () => {
    const ownProvider = scripted(['from the override'])
    const specialist = new Specialist({ provider: ownProvider })
    const result = await new Runtime({ provider: outer(), model: 'small' }).exec('go', { tools: [specialist] })

    expect(result.text).toBe('from the override')
    expect(ownProvider.requests[0]!.model).toBe('small')
  })

  it('exposes a decorated private method as a tool of the instance', async () => {
    const specialist = new Specialist()
    expect(specialist.tools.map((t) => t.spec.name)).toEqual(['consult', 'secret_note'])
    const ctx = directToolContext('t')
    expect(await specialist.tools[1]!.execute({}, ctx)).toBe('private to You are the specialist.')
  })
})
