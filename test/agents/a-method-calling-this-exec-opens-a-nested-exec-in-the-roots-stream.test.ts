import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, firstUserText, lastToolResult } from '../support/agent-runs.js'

class Researcher extends Agent {
  instructions = 'You research topics.'

  @tool({ description: 'Search notes', parameters: z.object({ q: z.string() }) })
  async search({ q }: { q: string }) {
    return `notes on ${q}`
  }

  @tool({ description: 'Summarise a topic', parameters: z.object({ topic: z.string() }) })
  async summarise({ topic }: { topic: string }) {
    return (await this.exec(`Summarise ${topic}`, { tools: [this.search] })).text
  }
}

// The root asks for a summary; the nested exec (recognised by its input) searches, then answers.
const provider = () =>
  scripted((request) => {
    const answer = lastToolResult(request)
    if (firstUserText(request).startsWith('Summarise'))
      return answer === undefined ? call('search', { q: 'zod' }) : `summary of ${answer}`
    return answer === undefined ? call('summarise', { topic: 'zod' }) : `final: ${answer}`
  })

describe('this.exec inside a @tool method', () => {
  it('runs one level deeper, with parentExecId set to the root exec, and its events appear in the root stream', async () => {
    const runtime = new Runtime({ provider: provider(), model: 'm' })
    const { events, result } = await collect(runtime.exec('research zod', { tools: [new Researcher()] }))

    expect(result.status).toBe('completed')
    expect(result.text).toBe('final: summary of notes on zod')
    const nested = events.filter((e) => e.depth === 1)
    expect(nested.length).toBeGreaterThan(0)
    expect(new Set(nested.map((e) => e.parentExecId))).toEqual(new Set([result.execId]))
    expect(nested.find((e) => e.type === 'tool_end')).toMatchObject({ toolName: 'search', isError: false })

    // The child's whole life sits inside the root's summarise call.
    const start = events.findIndex((e) => e.type === 'tool_start' && e.toolName === 'summarise')
    const end = events.findIndex((e) => e.type === 'tool_end' && e.toolName === 'summarise')
    const childStart = events.findIndex((e) => e.type === 'agent_start' && e.depth === 1)
    const childEnd = events.findIndex((e) => e.type === 'agent_end' && e.depth === 1)
    expect(start).toBeLessThan(childStart)
    expect(childEnd).toBeLessThan(end)
  })

  it('sends the agent instructions as system and only the tools the method passed', async () => {
    const p = provider()
    const runtime = new Runtime({ provider: p, model: 'm', system: 'root system' })
    await runtime.exec('research zod', { tools: [new Researcher()] })

    const child = p.requests.find((r) => firstUserText(r).startsWith('Summarise'))!
    expect(child.system).toBe('You research topics.')
    expect(child.tools.map((t) => t.name)).toEqual(['search'])
    expect(p.requests[0]!.system).toBe('root system')
  })

  it('throws no_runtime when called outside any exec on an agent without a runtime', () => {
    expect(() => new Researcher().exec('hello')).toThrow(expect.objectContaining({ code: 'no_runtime' }))
  })

  it('runs on the agent own runtime when it has one, also outside any exec', async () => {
    const own = new Runtime({ provider: scripted(['from own runtime']), model: 'm' })
    const result = await new Researcher({ runtime: own }).exec('hello')
    expect(result).toMatchObject({ status: 'completed', text: 'from own runtime' })
  })

  it('runs standalone on its own provider and model when it has both', async () => {
    const p = scripted(['standalone'])
    const result = await new Researcher({ provider: p, model: 'small' }).exec('hello', { tools: [] })
    expect(result.text).toBe('standalone')
    expect(p.requests[0]).toMatchObject({ model: 'small', system: 'You research topics.' })
  })
})
