import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, ToolRegistry, defineTool, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { thrown } from '../support/thrown.js'

const t = (name: string, answer = name) =>
  defineTool({ name, description: name, parameters: z.object({}), execute: () => answer })

describe('registries are exact', () => {
  it('registry.add of a name already registered throws and adds nothing', () => {
    const registry = new ToolRegistry().add(t('read'))
    const error = thrown(() => registry.add(t('write'), t('read', 'other')))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain('registry.add')
    expect(error.message).toContain('"read"')
    expect(registry.list().map((x) => x.spec.name)).toEqual(['read'])
  })

  it('registry.replace swaps a tool on purpose, and remove still removes', () => {
    const registry = new ToolRegistry().add(t('read'))
    const other = t('read', 'other')
    registry.replace(other)
    expect(registry.get('read')).toBe(other)
    expect(registry.remove('read')).toBe(true)
    registry.add(t('read'))
    expect(registry.list()).toHaveLength(1)
  })

  it.each(['toolsAllow', 'toolsDeny', 'stopAtTools'] as const)(
    "a name in an exec's own %s that none of its tools has is invalid_options naming it; no request is made",
    (key) => {
      const provider = scripted(['never'])
      const runtime = new Runtime({ provider, model: 'm', registry: new ToolRegistry().add(t('fs_read')) })
      const error = thrown(() => runtime.exec('go', { [key]: ['fs_raed'] }))
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain(key)
      expect(error.message).toContain('fs_raed')
      expect(error.message).toContain('fs_read')
      expect(provider.requests).toHaveLength(0)
      // Globs and names of tools the exec can resolve (before its filters) are fine.
      expect(() => runtime.exec('go', { [key]: ['fs_read', 'net_*'] })).not.toThrow()
    },
  )

  it('a nested exec checks its lists against the tools it inherits', async () => {
    let refused = ''
    const delegate = defineTool({
      name: 'delegate',
      description: 'Opens a nested exec',
      parameters: z.object({}),
      execute: () => {
        try {
          void runtime.exec('sub', { toolsAllow: ['delegate'] })
        } catch (error) {
          refused = (error as Error).message
        }
        return 'tried'
      },
    })
    const runtime = new Runtime({ provider: scripted([calls({ name: 'delegate' }), 'done']), model: 'm' })
    await runtime.exec('go', { tools: [delegate, t('other')] })
    // The running tool is not among the child's tools.
    expect(refused).toMatch(/toolsAllow.*\(other\).*"delegate"/)
  })

  it('a runtime stopAtTools list naming tools an exec lacks is exempt', async () => {
    const runtime = new Runtime({ provider: scripted(['done']), model: 'm', stopAtTools: ['finish'] })
    expect((await runtime.exec('go', { tools: [t('other')] })).status).toBe('completed')
  })

  it("an exec's own stopAtTools ends it at that tool, also after a pause", async () => {
    const guarded = defineTool({
      name: 'guarded',
      description: 'Needs approval',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'approved',
    })
    const tools = [t('finish', 'the answer'), guarded]
    const provider = scripted([calls({ name: 'guarded', id: 'g' })])
    const paused = await new Runtime({ provider, model: 'm' }).exec('go', { tools, stopAtTools: ['finish'] })
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    const runtime = new Runtime({ provider: scripted([calls({ name: 'finish' }), 'never']), model: 'm' })
    const result = await runtime.resume(state, { approve: ['g'] }, { tools })
    expect(result.status).toBe('completed')
    expect(result.text).toBe('the answer')
  })
})
