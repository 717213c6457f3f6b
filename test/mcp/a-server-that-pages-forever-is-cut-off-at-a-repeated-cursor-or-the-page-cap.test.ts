import { mcpTools } from '@nestor/mcp'
import { describe, expect, it } from 'vitest'
import { def, hostileServer } from './hostile-server.js'

describe('mcpTools against a server whose tools/list never ends', () => {
  it('a cursor sent twice stops the listing with invalid_options after two pages, not 20,000', async () => {
    const hostile = await hostileServer(() => ({ tools: [def('spin')], nextCursor: 'same' }))
    try {
      await expect(mcpTools(hostile.client)).rejects.toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(/cursor it had sent before/),
      })
      expect(hostile.stats.lists).toBe(2)
    } finally {
      await hostile.close()
    }
  })

  it('ever new cursors stop at 100 pages', async () => {
    const hostile = await hostileServer((cursor) => ({
      tools: [def(`t${cursor ?? 0}`)],
      nextCursor: String(Number(cursor ?? 0) + 1),
    }))
    try {
      await expect(mcpTools(hostile.client)).rejects.toThrow(/more than 100 pages/)
      expect(hostile.stats.lists).toBe(100)
    } finally {
      await hostile.close()
    }
  })

  it('a server that pages honestly is listed whole', async () => {
    const hostile = await hostileServer((cursor) =>
      cursor === undefined ? { tools: [def('a')], nextCursor: 'p2' } : { tools: [def('b')] },
    )
    try {
      const mcp = await mcpTools(hostile.client)
      expect(mcp.tools.map((t) => t.spec.name)).toEqual(['a', 'b'])
    } finally {
      await hostile.close()
    }
  })
})
