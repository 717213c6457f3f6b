import { Runtime, exec, defineTool, type ToolResultMessage } from '@nestor/core'
import { Agent } from '@nestor/agents'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { main as typedTrip } from '../../examples/output/typed-trip.js'
import { historyProblems } from '../support/run.js'

const Profile = z.object({ city: z.string(), score: z.number() })

describe('typed output across nesting', () => {
  it('a child exec with output gives its parent child.output', async () => {
    let childOutput: unknown
    const lookup = defineTool({
      name: 'lookup',
      description: 'Profile a city',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        const child = await exec(`Profile ${city}`, { output: Profile, toolset: 'none' })
        childOutput = child.output
        return child.output?.score ?? -1
      },
    })
    const provider = scripted([
      { content: [{ type: 'toolCall', name: 'lookup', arguments: { city: 'Porto' } }] },
      '{"city":"Porto","score":8}',
      'Porto scores 8.',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('How is Porto?', { tools: [lookup] })
    expect(result.status).toBe('completed')
    expect(childOutput).toEqual({ city: 'Porto', score: 8 })
    const toolResult = result.history.find((m): m is ToolResultMessage => m.role === 'toolResult')
    expect(toolResult?.content).toEqual([{ type: 'text', text: '8' }])
  })

  it('asTool with output makes the tool return the object, as JSON to the model and in details', async () => {
    class Scout extends Agent {
      instructions = 'You rate cities.'
    }
    const provider = scripted([
      { content: [{ type: 'toolCall', name: 'scout', arguments: { input: 'Rate Braga' } }] },
      'Braga is lovely, 7 out of 10',
      '{"city":"Braga","score":7}',
      'Braga: 7.',
    ])
    const runtime = new Runtime({ provider, model: 'm' })
    const run = runtime.exec('Rate Braga', {
      tools: [new Scout().asTool({ name: 'scout', description: 'Rate a city', output: Profile })],
    })
    let details: unknown
    for await (const event of run) if (event.type === 'tool_end' && event.depth === 0) details = event.result.details
    const result = await run
    expect(result.status).toBe('completed')
    const toolResult = result.history.find((m): m is ToolResultMessage => m.role === 'toolResult')
    expect(JSON.parse((toolResult?.content[0] as { text: string }).text)).toEqual({ city: 'Braga', score: 7 })
    expect(details).toMatchObject({ output: { city: 'Braga', score: 7 } })
    // The child's first answer was not JSON: the issues went back to it, inside the child exec.
    expect(provider.requests[2]!.messages.at(-1)).toMatchObject({ role: 'user' })
    expect(historyProblems(result.history)).toEqual([])
  })

  it('an Agent with an output property gives typed results to its own execs and to asTool (the docs example)', async () => {
    const lines: string[] = []
    const result = await typedTrip((line) => lines.push(line))
    expect(result.status).toBe('completed')
    expect(result.output).toEqual({
      city: 'Lisbon',
      days: [
        { day: 1, plan: 'Alfama and Fado' },
        { day: 2, plan: 'Belém' },
      ],
      totalEur: 180,
    })
    expect(lines[0]).toBe('research → {"city":"Lisbon","bestMonths":["May","June"],"dailyBudgetEur":90}')
    expect(lines).toContain('sent back: - totalEur: Invalid input: expected number, received undefined')
    expect(lines.at(-1)).toBe('completed, total 180 EUR')
  })
})
