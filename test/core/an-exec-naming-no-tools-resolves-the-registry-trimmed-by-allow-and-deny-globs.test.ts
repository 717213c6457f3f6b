import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, ToolRegistry, defineTool } from '@nestor/core'
import { globMatch } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'

const t = (name: string) => defineTool({ name, description: name, parameters: z.object({}), execute: () => name })

async function toolNames(runtime: Runtime, options: Parameters<Runtime['exec']>[1] = {}) {
  const provider = runtime.options.provider as ReturnType<typeof scripted>
  await runtime.exec('go', options)
  return provider.requests.at(-1)?.tools.map((x) => x.name)
}

describe('tool registry', () => {
  const registry = new ToolRegistry().add(t('fs_read'), t('fs_write'), t('net_get'))
  const runtime = () => new Runtime({ provider: scripted(() => 'ok'), model: 'm', registry })

  it('tools are on by default: an exec without tools or toolset resolves the whole registry', async () => {
    expect(await toolNames(runtime())).toEqual(['fs_read', 'fs_write', 'net_get'])
  })

  it("toolset 'none' and tools: [] make a pure reasoning call", async () => {
    expect(await toolNames(runtime(), { toolset: 'none' })).toEqual([])
    expect(await toolNames(runtime(), { tools: [] })).toEqual([])
  })

  it('toolsAllow and toolsDeny trim the resolved set with * globs', async () => {
    expect(await toolNames(runtime(), { toolsAllow: ['fs_*'] })).toEqual(['fs_read', 'fs_write'])
    expect(await toolNames(runtime(), { toolsDeny: ['*_write'] })).toEqual(['fs_read', 'net_get'])
    expect(await toolNames(runtime(), { toolsAllow: ['fs_*'], toolsDeny: ['fs_read'] })).toEqual(['fs_write'])
    expect(await toolNames(runtime(), { tools: [t('x_1'), t('y_1')], toolsDeny: ['x*'] })).toEqual(['y_1'])
  })

  it('globs match whole names only', () => {
    expect(globMatch('fs_*', 'fs_read')).toBe(true)
    expect(globMatch('fs_*', 'xfs_read')).toBe(false)
    expect(globMatch('*', 'anything')).toBe(true)
    expect(globMatch('a.b', 'aXb')).toBe(false)
  })

  it('registry.add and remove change what later execs resolve', async () => {
    const own = new ToolRegistry().add(t('one'))
    const rt = new Runtime({ provider: scripted(() => 'ok'), model: 'm', registry: own })
    expect(await toolNames(rt)).toEqual(['one'])
    own.add(t('two'))
    own.remove('one')
    expect(await toolNames(rt)).toEqual(['two'])
  })
})
