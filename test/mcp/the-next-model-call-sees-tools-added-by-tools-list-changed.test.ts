import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'
import { edgeServer, textOfResult, toolResults } from '../support/mcp-servers.js'

describe('notifications/tools/list_changed', () => {
  it('a tool the server adds mid-exec is offered in the next model call and can be called', async () => {
    const mcp = await mcpTools(edgeServer())
    try {
      const provider = scripted([
        calls({ name: 'add_tool', args: { name: 'fresh' } }),
        calls({ name: 'fresh' }),
        'done',
      ])
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })

      expect(provider.requests[0]!.tools.map((t) => t.name)).not.toContain('fresh')
      expect(provider.requests[1]!.tools.map((t) => t.name)).toContain('fresh')
      const results = toolResults(result.history)
      expect(results.map(textOfResult)).toEqual(['added fresh', 'fresh ran'])
      expect(mcp.tools.map((t) => t.spec.name)).toContain('fresh')
    } finally {
      await mcp.close()
    }
  })

  it('the refreshed list keeps the exec filters (toolsDeny) and the prefix', async () => {
    const mcp = await mcpTools(edgeServer(), { prefix: 'e_' })
    try {
      const provider = scripted([calls({ name: 'e_add_tool', args: { name: 'secret' } }), 'done'])
      await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools, toolsDeny: ['e_secret', 'e_die'] })
      const names = provider.requests[1]!.tools.map((t) => t.name)
      expect(names).toContain('e_add_tool')
      expect(names).not.toContain('e_secret')
      expect(names).not.toContain('e_die')
      expect(mcp.tools.map((t) => t.spec.name)).toContain('e_secret')
    } finally {
      await mcp.close()
    }
  })
})
