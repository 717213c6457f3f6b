import { describe, expect, it } from 'vitest'
import { main as asTool } from '../../examples/research/guide/as-tool.js'
import { main as decorated } from '../../examples/research/guide/decorated.js'
import { main as nesting } from '../../examples/research/guide/nesting.js'
import { main as undecorated } from '../../examples/research/guide/undecorated.js'

// The snippets of docs/agents.md are excerpts of these files; their printed output is what the doc shows.
describe('docs/agents.md examples', () => {
  it('decorated: the @tool method reaches the model with its schema and answers with this bound', async () => {
    const lines: string[] = []
    const result = await decorated((l) => lines.push(l))
    expect(JSON.parse(lines[0]!)).toEqual({
      name: 'forecast',
      description: 'Forecast for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    })
    expect(result.messages.find((m) => m.role === 'toolResult')?.content).toEqual([
      { type: 'text', text: 'snow, -2°C' },
    ])
  })

  it('undecorated: defineAgentTools makes a method reference a tool', async () => {
    const result = await undecorated(() => {})
    expect(result.messages.find((m) => m.role === 'toolResult')?.content).toEqual([{ type: 'text', text: '42' }])
  })

  it('nesting: this.exec runs one level deeper and streams up', async () => {
    const lines: string[] = []
    const events = await nesting((l) => lines.push(l))
    expect(lines).toEqual(['  spell (depth 1)', 'edit (depth 0)', 'Edited: the end'])
    expect(events.filter((e) => e.depth === 1).length).toBeGreaterThan(0)
  })

  it('as-tool: the agent runs as a nested exec with its own tools', async () => {
    const lines: string[] = []
    await asTool((l) => lines.push(l))
    expect(lines).toEqual(['exec at depth 0: translate', '  exec at depth 1: dictionary', '"cat" is "chat".'])
  })
})
