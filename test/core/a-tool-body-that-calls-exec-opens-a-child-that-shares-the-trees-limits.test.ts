import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, currentExec, defineTool, exec, type AgentEvent, type ExecResult } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { calls, collect, textOf } from '../support/run.js'

/** Answers by depth: the user text of the last user message says which level asks. */
const lastUser = (r: ModelRequest) => textOf([...r.messages].reverse().find((m) => m.role === 'user')!)

describe('nested exec', () => {
  it('exec() outside any exec throws no_runtime', () => {
    let thrown: unknown
    try {
      void exec('hello')
    } catch (error) {
      thrown = error
    }
    expect(NestorError.isInstance(thrown) && thrown.code).toBe('no_runtime')
  })

  it('currentExec() tells a tool body which exec and tool it runs in, and is undefined outside', async () => {
    let seen: ReturnType<typeof currentExec>
    const where = defineTool({
      name: 'where',
      description: 'd',
      parameters: z.object({}),
      execute: async () => {
        await new Promise((r) => setTimeout(r, 1))
        seen = currentExec()
        return 'here'
      },
    })
    const result = await new Runtime({ provider: scripted([calls({ name: 'where' }), 'ok']), model: 'm' }).exec('go', {
      tools: [where],
    })
    expect(seen).toEqual({ execId: result.execId, depth: 0, path: [result.execId], toolName: 'where' })
    expect(currentExec()).toBeUndefined()
  })

  it('a tool body that calls exec() opens a child: depth 1, parentExecId, inherited provider and model, events in the parent stream', async () => {
    let child: ExecResult | undefined
    const delegate = defineTool({
      name: 'delegate',
      description: 'd',
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => {
        child = await exec(`child: ${q}`)
        return child.text
      },
    })
    const provider = scripted((req) => {
      const text = lastUser(req)
      if (text.startsWith('child:')) return 'child answer'
      return req.messages.some((m) => m.role === 'toolResult')
        ? 'parent done'
        : calls({ name: 'delegate', args: { q: 'x' } })
    })
    const runtime = new Runtime({ provider, model: 'parent-model' })
    const { events, result } = await collect(runtime.exec('start', { tools: [delegate] }))
    expect(result.text).toBe('parent done')
    expect(child?.status).toBe('completed')
    const childEvents = events.filter((e) => e.depth === 1)
    expect(childEvents.length).toBeGreaterThan(0)
    for (const e of childEvents) {
      expect(e.parentExecId).toBe(result.execId)
      expect(e.execId).toBe(child?.execId)
    }
    // Child events sit between the parent's tool_start and tool_end, in order.
    const start = events.findIndex((e) => e.type === 'tool_start' && e.depth === 0)
    const end = events.findIndex((e) => e.type === 'tool_end' && e.depth === 0)
    const firstChild = events.findIndex((e) => e.depth === 1)
    const lastChild = events.findLastIndex((e) => e.depth === 1)
    expect(start).toBeLessThan(firstChild)
    expect(lastChild).toBeLessThan(end)
    expect(childEvents.map((e) => e.seq)).toEqual(childEvents.map((_, i) => i))
    const childRequest = provider.requests.find((r) => lastUser(r).startsWith('child:'))!
    expect(childRequest.model).toBe('parent-model')
  })

  it('a child inherits the resolved tools minus the running one; toolsAllow and toolsDeny only narrow', async () => {
    const seen: Record<string, string[]> = {}
    const leaf = (name: string) =>
      defineTool({ name, description: name, parameters: z.object({}), execute: () => name })
    const outer = defineTool({
      name: 'outer',
      description: 'd',
      parameters: z.object({}),
      execute: async () => {
        await exec('child:inherit')
        await exec('child:narrow', { toolsDeny: ['b*'] })
        await exec('child:own', { tools: [leaf('z')] })
        return 'ok'
      },
    })
    const provider = scripted((req) => {
      const text = lastUser(req)
      if (text.startsWith('child:')) {
        seen[text] = req.tools.map((t) => t.name)
        return 'fine'
      }
      return req.messages.some((m) => m.role === 'toolResult') ? 'done' : calls({ name: 'outer' })
    })
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [outer, leaf('a1'), leaf('b1')] })
    expect(seen['child:inherit']).toEqual(['a1', 'b1'])
    expect(seen['child:narrow']).toEqual(['a1'])
    expect(seen['child:own']).toEqual(['z'])
  })

  it('past maxDepth a child fails max_depth without a model call', async () => {
    const depths: number[] = []
    const results: ExecResult[] = []
    const recurse = defineTool({
      name: 'recurse',
      description: 'd',
      parameters: z.object({}),
      execute: async () => {
        const r: ExecResult = await exec('deeper', { tools: [recurse] })
        results.push(r)
        return r.status === 'failed' ? `child failed: ${r.error?.code}` : r.text
      },
    })
    const provider = scripted((req) => {
      depths.push(req.messages.length)
      return req.messages.some((m) => m.role === 'toolResult') ? 'up' : calls({ name: 'recurse' })
    })
    const runtime = new Runtime({ provider, model: 'm', maxDepth: 2 })
    const { events, result } = await collect(runtime.exec('go', { tools: [recurse] }))
    expect(result.status).toBe('completed')
    const refused = results.find((r) => r.error?.code === 'max_depth')
    expect(refused).toBeDefined()
    expect(refused?.iterationsUsed).toBe(0)
    expect(Math.max(...events.map((e) => e.depth))).toBe(3)
    // depth 0, 1 and 2 each made two model calls; depth 3 made none.
    expect(provider.requests).toHaveLength(6)
  })

  it('maxTotalIterations is shared by the whole tree', async () => {
    const delegate = defineTool({
      name: 'delegate',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await exec('child')).error?.code ?? 'ok',
    })
    const provider = scripted((req) =>
      lastUser(req) === 'child' ? calls({ name: 'noop' }) : calls({ name: 'delegate' }),
    )
    const noop = defineTool({
      name: 'noop',
      description: 'd',
      parameters: z.object({}).passthrough(),
      execute: () => 'n',
    })
    const result = await new Runtime({ provider, model: 'm', maxTotalIterations: 3, duplicateCalls: 'allow' }).exec(
      'go',
      { tools: [delegate, noop] },
    )
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toContain('maxTotalIterations')
    expect(provider.requests).toHaveLength(3)
  })

  it('aborting the parent aborts every child', async () => {
    let childResult: ExecResult | undefined
    const slowChild = defineTool({
      name: 'slow_child',
      description: 'd',
      parameters: z.object({}),
      execute: async () => {
        childResult = await exec('child', { toolset: 'none' })
        return 'x'
      },
    })
    const provider = scripted(
      (req) =>
        lastUser(req) === 'child' ? 'a very long child answer that streams slowly' : calls({ name: 'slow_child' }),
      { delayMs: 20, chunkSize: 2 },
    )
    const run = new Runtime({ provider, model: 'm' }).exec('go', { tools: [slowChild] })
    for await (const e of run) {
      if (e.depth === 1 && e.type === 'message_delta') run.abort()
    }
    const result = await run
    expect(result.status).toBe('aborted')
    expect(childResult?.status).toBe('aborted')
    expect(childResult?.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' })
  })

  it('parallel siblings keep separate frames', async () => {
    const frames: { parent: string | undefined; tools: string[] }[] = []
    const make = (name: string) =>
      defineTool({
        name,
        description: name,
        parameters: z.object({}),
        execute: async () => {
          await new Promise((r) => setTimeout(r, 10))
          const run = exec(`child of ${name}`)
          const events: AgentEvent[] = []
          for await (const e of run) events.push(e)
          frames.push({
            parent: events[0]?.parentExecId,
            tools: (events[0] as Extract<AgentEvent, { type: 'agent_start' }>).toolNames,
          })
          return name
        },
      })
    const provider = scripted((req) =>
      lastUser(req).startsWith('child')
        ? 'c'
        : req.messages.some((m) => m.role === 'toolResult')
          ? 'done'
          : calls({ name: 'left' }, { name: 'right' }),
    )
    const result = await new Runtime({ provider, model: 'm', toolExecution: 'parallel' }).exec('go', {
      tools: [make('left'), make('right')],
    })
    expect(frames).toHaveLength(2)
    for (const f of frames) expect(f.parent).toBe(result.execId)
    expect(frames.map((f) => f.tools).sort()).toEqual([['left'], ['right']])
  })

  it('totalUsage sums the tree while usage counts this exec only', async () => {
    const delegate = defineTool({
      name: 'delegate',
      description: 'd',
      parameters: z.object({}),
      execute: async () => (await exec('child')).text,
    })
    const provider = scripted((req) =>
      lastUser(req) === 'child'
        ? { content: [{ type: 'text', text: 'c' }], usage: { input: 100, output: 50, total: 150 } }
        : req.messages.some((m) => m.role === 'toolResult')
          ? { content: [{ type: 'text', text: 'done' }], usage: { input: 2, output: 1, total: 3 } }
          : { ...calls({ name: 'delegate' }), usage: { input: 1, output: 1, total: 2 } },
    )
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [delegate] })
    expect(result.usage).toMatchObject({ input: 3, output: 2, total: 5 })
    expect(result.totalUsage).toMatchObject({ input: 103, output: 52, total: 155 })
  })
})
