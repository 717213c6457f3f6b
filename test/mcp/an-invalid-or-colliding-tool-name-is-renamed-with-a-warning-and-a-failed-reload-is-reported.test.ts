import { Runtime } from '@nestor/core'
import { mcpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { calls } from '../support/run.js'
import { def, hostileServer, keptLog } from './hostile-server.js'

const names = (tools: { spec: { name: string } }[]) => tools.map((t) => t.spec.name)

describe('mcpTools against a server with names the core rejects', () => {
  it('1password, "a b" beside a_b and a 100-character name are renamed, reported, and callable', async () => {
    const hostile = await hostileServer(() => ({
      tools: [def('1password'), def('a b'), def('a_b'), def('x'.repeat(100)), def('ok')],
    }))
    const log = keptLog()
    try {
      const mcp = await mcpTools(hostile.client, { logger: log.logger })
      expect(names(mcp.tools)).toEqual(['_1password', 'a_b_2', 'a_b', 'x'.repeat(64), 'ok'])
      expect(log.entries.map((e) => [e.level, e.server])).toEqual([
        ['warn', 'hostile'],
        ['warn', 'hostile'],
        ['warn', 'hostile'],
      ])
      expect(log.entries[0]!.message).toMatch(/"1password" is offered as _1password/)
      expect(log.entries[1]!.message).toMatch(/"a b" is offered as a_b_2/)

      const provider = scripted([calls({ name: '_1password' }, { name: 'a_b_2' }, { name: 'a_b' }), 'done'])
      const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })
      expect(result.status).toBe('completed')
      expect(hostile.stats.calls).toEqual(['1password', 'a b', 'a_b'])
    } finally {
      await hostile.close()
    }
  })

  it('a tool whose schema cannot be compiled is left out with a warning; the others stay', async () => {
    const broken = {
      ...def('broken'),
      inputSchema: { type: 'object' as const, properties: { a: { type: 'nonsense' } } },
    }
    const hostile = await hostileServer(() => ({ tools: [broken, def('fine')] }))
    const log = keptLog()
    try {
      const mcp = await mcpTools(hostile.client, { logger: log.logger })
      expect(names(mcp.tools)).toEqual(['fine'])
      expect(log.entries).toMatchObject([{ level: 'warn', message: expect.stringMatching(/"broken" was left out/) }])
    } finally {
      await hostile.close()
    }
  })

  it('a reload that fails is reported as an error and the last list stays in use', async () => {
    const hostile = await hostileServer((_cursor, call) => {
      if (call > 1) throw new Error('listing is down')
      return { tools: [def('kept')] }
    })
    const log = keptLog()
    try {
      const mcp = await mcpTools(hostile.client, { logger: log.logger })
      await hostile.server.sendToolListChanged()
      for (let i = 0; i < 200 && log.entries.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
      expect(log.entries).toMatchObject([
        { level: 'error', server: 'hostile', message: expect.stringMatching(/could not reload.*listing is down/) },
      ])
      expect(names(mcp.tools)).toEqual(['kept'])
    } finally {
      await hostile.close()
    }
  })
})
