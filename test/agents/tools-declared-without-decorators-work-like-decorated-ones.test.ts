import { Agent, defineAgentTools } from '@nestor/agents'
import { Runtime, registry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, firstUserText, lastToolResult } from '../support/agent-runs.js'

// No decorator anywhere in this file: the form for toolchains without standard decorators.
class Library extends Agent {
  instructions = 'You look things up in the library.'
  constructor(private readonly shelf: Record<string, string>) {
    super()
  }
  async lookup({ title }: { title: string }) {
    return this.shelf[title] ?? 'not on the shelf'
  }
  async review({ title }: { title: string }) {
    return (await this.exec(`Review ${title}`, { tools: [this.lookup] })).text
  }
  helper() {
    return 'not a tool'
  }
}
defineAgentTools(Library, {
  lookup: { description: 'Find a book by title', parameters: z.object({ title: z.string() }) },
  review: { description: 'Review a book', parameters: z.object({ title: z.string() }), name: 'review_book' },
})

class Archive extends Library {
  async shelves() {
    return 'one shelf'
  }
}
defineAgentTools(Archive, { shelves: { description: 'List shelves', parameters: z.object({}), register: true } })

describe('defineAgentTools(Class, { method: options })', () => {
  it('exposes the declared methods as tools with JSON Schemas, bound to the instance, and nothing else', async () => {
    const provider = scripted([call('lookup', { title: 'Dune' }), 'done'])
    const runtime = new Runtime({ provider, model: 'm' })
    const result = await runtime.exec('find Dune', { tools: [new Library({ Dune: 'Herbert, 1965' })] })

    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(['lookup', 'review_book'])
    expect(provider.requests[0]!.tools[0]!.parameters).toMatchObject({
      properties: { title: { type: 'string' } },
      required: ['title'],
    })
    expect(result.messages.find((m) => m.role === 'toolResult')?.content).toEqual([
      { type: 'text', text: 'Herbert, 1965' },
    ])
  })

  it('makes this.method a tool reference and this.exec nest, as with @tool', async () => {
    const provider = scripted((request) => {
      const answer = lastToolResult(request)
      if (firstUserText(request).startsWith('Review'))
        return answer === undefined ? call('lookup', { title: 'Dune' }) : `a classic (${answer})`
      return answer === undefined ? call('review_book', { title: 'Dune' }) : answer
    })
    const runtime = new Runtime({ provider, model: 'm' })
    const { events, result } = await collect(runtime.exec('review Dune', { tools: [new Library({ Dune: 'Herbert' })] }))

    expect(result.text).toBe('a classic (Herbert)')
    expect(events.some((e) => e.depth === 1 && e.type === 'tool_end' && e.toolName === 'lookup')).toBe(true)
    expect(provider.requests[1]).toMatchObject({
      system: 'You look things up in the library.',
      tools: [expect.objectContaining({ name: 'lookup' })],
    })
  })

  it('inherits declarations from the base class and registers per instance with register: true', () => {
    const archive = new Archive({})
    expect(archive.tools.map((t) => t.spec.name)).toEqual(['lookup', 'review_book', 'shelves'])
    expect(registry.get('shelves')).toBe(archive.tools[2])
    registry.remove('shelves')
  })

  it('refuses a name that is not a method of the class', () => {
    // @ts-expect-error: 'missing' is not a method of Library
    expect(() => defineAgentTools(Library, { missing: { description: 'x', parameters: z.object({}) } })).toThrow(
      /not a method/,
    )
  })
})
