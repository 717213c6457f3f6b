import { Runtime, defineTool, type Tool } from '@nestor/core'
import { liveToolList, type LiveToolList } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'

/** A changing list such as an MCP server's: tools carry it under the liveToolList symbol. */
function liveList() {
  const list: LiveToolList & { tools: Tool[]; add(name: string): void } = {
    tools: [],
    current: () => list.tools,
    add(name) {
      const tool = defineTool({
        name,
        description: name,
        parameters: { type: 'object' },
        execute: () => `${name} ran`,
      }) as Tool
      Object.defineProperty(tool, liveToolList, { value: list })
      list.tools = [...list.tools, tool]
    },
  }
  return list
}

describe('live tool lists', () => {
  it('a tool added to the list during the exec reaches the next model call and runs', async () => {
    const list = liveList()
    list.add('grow')
    const grow = list.tools[0]!
    grow.execute = () => (list.add('late'), 'grown')
    const provider = scripted([calls({ name: 'grow' }), calls({ name: 'late' }), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [...list.tools] })

    expect(provider.requests.map((r) => r.tools.map((t) => t.name))).toEqual([
      ['grow'],
      ['grow', 'late'],
      ['grow', 'late'],
    ])
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['grow', 'ok'],
      ['late', 'ok'],
    ])
  })

  it('a removed tool disappears, the exec filters apply to new tools, and other tools are kept', async () => {
    const list = liveList()
    list.add('a')
    const fixed = defineTool({
      name: 'fixed',
      description: 'not live',
      parameters: { type: 'object' },
      execute: () => 'ok',
    })
    const provider = scripted(async (_request, index) => {
      if (index === 0) {
        list.tools = []
        list.add('b')
        list.add('hidden')
      }
      return index === 0 ? calls({ name: 'fixed' }) : 'done'
    })
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [...list.tools, fixed], toolsDeny: ['hidden'] })
    expect(provider.requests[1]!.tools.map((t) => t.name)).toEqual(['fixed', 'b'])
  })
})
