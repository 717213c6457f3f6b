import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { call, collect } from '../support/agent-runs.js'
import { directToolContext } from '../support/tool-context.js'

class Notes extends Agent {
  instructions = 'You keep notes.'
  private readonly notes = ['zod v4 has toJSONSchema', 'pnpm workspaces']

  @tool({
    description: 'Search the notes',
    parameters: z.object({ q: z.string().describe('words to find'), limit: z.number().int().optional() }),
  })
  async search({ q }: { q: string; limit?: number | undefined }) {
    return this.notes.filter((n) => n.includes(q)).join('\n') || 'nothing found'
  }

  @tool({ name: 'count_notes', description: 'Count the notes', parameters: z.object({}) })
  count() {
    return this.notes.length
  }
}

describe('an Agent instance passed as tools', () => {
  it('sends each @tool method to the model with its name and a non-empty JSON Schema derived from zod', async () => {
    const provider = scripted([call('search', { q: 'zod' }), 'done'])
    const runtime = new Runtime({ provider, model: 'm' })
    const { result } = await collect(runtime.exec('find zod', { tools: [new Notes()] }))

    expect(result.status).toBe('completed')
    const tools = provider.requests[0]!.tools
    expect(tools.map((t) => t.name)).toEqual(['search', 'count_notes'])
    expect(tools[0]!.description).toBe('Search the notes')
    expect(tools[0]!.parameters).toMatchObject({
      type: 'object',
      properties: { q: { type: 'string', description: 'words to find' }, limit: { type: 'integer' } },
      required: ['q'],
    })
    expect(Object.keys(tools[1]!.parameters)).toContain('properties')
  })

  it('runs the method with this bound to the instance and feeds its result back to the model', async () => {
    const provider = scripted([call('search', { q: 'zod' }), 'done'])
    const runtime = new Runtime({ provider, model: 'm' })
    const { result } = await collect(runtime.exec('find zod', { tools: [new Notes()] }))

    const toolResult = result.messages.find((m) => m.role === 'toolResult')
    expect(toolResult).toMatchObject({
      toolName: 'search',
      isError: false,
      content: [{ type: 'text', text: 'zod v4 has toJSONSchema' }],
    })
  })

  it('accepts zod v3 schemas too, still with a non-empty JSON Schema', async () => {
    class Legacy extends Agent {
      instructions = ''
      @tool({ description: 'Legacy schema', parameters: z3.object({ id: z3.number() }) })
      fetch({ id }: { id: number }) {
        return `#${id}`
      }
    }
    const provider = scripted([call('fetch', { id: 7 }), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('x', { tools: [new Legacy()] })
    expect(provider.requests[0]!.tools[0]!.parameters).toMatchObject({
      type: 'object',
      properties: { id: { type: 'number' } },
      required: ['id'],
    })
    expect(result.messages.find((m) => m.role === 'toolResult')?.content).toEqual([{ type: 'text', text: '#7' }])
  })

  it('validates arguments against the zod schema before the method runs', async () => {
    const provider = scripted([call('search', { q: 42 }), 'done'])
    const runtime = new Runtime({ provider, model: 'm' })
    const { result } = await collect(runtime.exec('find', { tools: [new Notes()] }))

    expect(result.receipts[0]).toMatchObject({ toolName: 'search', status: 'invalid_arguments' })
  })

  it('lists the same tools through the tools getter, bound to the instance', async () => {
    const notes = new Notes()
    const [search] = notes.tools
    expect(notes.tools.map((t) => t.spec.name)).toEqual(['search', 'count_notes'])
    const ctx = directToolContext('t')
    expect(await search!.execute({ q: 'pnpm' }, ctx)).toBe('pnpm workspaces')
  })
})
