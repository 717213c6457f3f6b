import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  NestorError,
  Runtime,
  defineTool,
  exec,
  type ExecResult,
  type ExecStatus,
  type Tool,
  type ToolContext,
} from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { calls, collect, textOf } from '../support/run.js'

// ToolContext.exec opens the same child as the ambient exec() (no AsyncLocalStorage needed): the
// way to nest in a browser, and wherever a body hands work to code outside its async context.

const lastUser = (r: ModelRequest) => textOf([...r.messages].reverse().find((m) => m.role === 'user')!)

/** A job queue whose worker loop started outside any exec: its jobs run outside the body's context. */
function queue() {
  const jobs: (() => void)[] = []
  let wake: (() => void) | undefined
  void (async () => {
    for (;;) {
      await new Promise<void>((resolve) => (wake = resolve))
      while (jobs.length) jobs.shift()!()
    }
  })()
  return <T>(job: () => T): Promise<Awaited<T>> =>
    new Promise<Awaited<T>>((resolve, reject) => {
      jobs.push(() => {
        try {
          resolve(job() as Awaited<T>)
        } catch (error) {
          reject(error)
        }
      })
      wake?.()
    })
}

/** A runtime whose tool `delegate` nests through `open`; the model answers by depth. */
function delegating(open: (q: string, ctx: ToolContext) => Promise<ExecResult>) {
  const delegate = defineTool({
    name: 'delegate',
    description: 'd',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }, ctx) => (await open(q, ctx)).text,
  })
  const provider = scripted((req) => {
    if (lastUser(req).startsWith('child:')) return 'child answer'
    return req.messages.some((m) => m.role === 'toolResult')
      ? 'parent done'
      : calls({ name: 'delegate', args: { q: 'x' } })
  })
  return { runtime: new Runtime({ provider, model: 'parent-model' }), tools: [delegate] }
}

const shape = (events: { type: string; depth: number }[]) => events.map((e) => `${e.depth}:${e.type}`)

describe('ToolContext.exec', () => {
  it('opens the same child as the ambient exec(): depth, parent, inherited model, events in the parent stream', async () => {
    const ambient = delegating(async (q) => exec(`child: ${q}`))
    const viaCtx = delegating(async (q, ctx) => ctx.exec(`child: ${q}`))
    const a = await collect(ambient.runtime.exec('start', { tools: ambient.tools }))
    const b = await collect(viaCtx.runtime.exec('start', { tools: viaCtx.tools }))
    expect(b.result.text).toBe('parent done')
    expect(shape(b.events)).toEqual(shape(a.events))
    const child = b.events.filter((e) => e.depth === 1)
    expect(child.length).toBeGreaterThan(0)
    for (const e of child) expect(e.parentExecId).toBe(b.result.execId)
  })

  it('nests from a job queue outside the async context, where the ambient exec() fails no_runtime naming ctx.exec', async () => {
    const later = queue()
    let ambientError: unknown
    const { runtime, tools } = delegating(async (q, ctx) => {
      ambientError = await later(() => exec(`child: ${q}`)).catch((error: unknown) => error)
      return later(() => ctx.exec(`child: ${q}`))
    })
    const { events, result } = await collect(runtime.exec('start', { tools }))
    expect(NestorError.isInstance(ambientError) && ambientError.code).toBe('no_runtime')
    expect((ambientError as Error).message).toContain('ctx.exec(input, options)')
    expect(result.text).toBe('parent done')
    expect(events.filter((e) => e.depth === 1 && e.type === 'agent_end').length).toBe(1)
  })

  it("shares the tree's limits: a child past maxDepth fails max_depth", async () => {
    // A child inherits the tools minus the running one: this one hands itself on.
    const self: { tool?: Tool<Record<string, never>, ExecStatus> } = {}
    const deeper = (self.tool = defineTool({
      name: 'deeper',
      description: 'd',
      parameters: z.object({}),
      execute: async (_args, ctx) => (await ctx.exec('again', { tools: [self.tool!] })).status,
    }))
    const provider = scripted((req) =>
      req.messages.some((m) => m.role === 'toolResult') ? 'done' : calls({ name: 'deeper' }),
    )
    const { events } = await collect(new Runtime({ provider, model: 'm', maxDepth: 1 }).exec('go', { tools: [deeper] }))
    const ends = events
      .filter((e) => e.type === 'agent_end')
      .map((e) => [e.depth, 'result' in e ? e.result.status : ''])
    expect(ends).toContainEqual([2, 'failed'])
  })
})
