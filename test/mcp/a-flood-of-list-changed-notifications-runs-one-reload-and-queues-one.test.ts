import { mcpTools } from '@nestor/mcp'
import { describe, expect, it } from 'vitest'
import { def, hostileServer } from './hostile-server.js'

describe('mcpTools and notifications/tools/list_changed', () => {
  it('200 notifications at once run one reload and one queued behind it, and the list ends current', async () => {
    let version = 0
    const hostile = await hostileServer(() => ({ tools: [def(`v${version}`)] }))
    try {
      const mcp = await mcpTools(hostile.client)
      expect(hostile.stats.lists).toBe(1)
      await Promise.all(
        Array.from({ length: 200 }, () => {
          version++
          return hostile.server.sendToolListChanged()
        }),
      )
      // The live list the core reads before a model call waits for the reloads under way.
      const live = mcp.tools[0] as unknown as Record<symbol, { current(): unknown }>
      const current = await live[Symbol.for('nestor.liveToolList')]!.current()
      expect((current as { spec: { name: string } }[]).map((t) => t.spec.name)).toEqual(['v200'])
      expect(mcp.tools.map((t) => t.spec.name)).toEqual(['v200'])
      expect(hostile.stats.lists).toBeLessThanOrEqual(3)
    } finally {
      await hostile.close()
    }
  })
})
