import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { instrument } from '@nestor/otel'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'
import { memoryTracing, treeOf } from '../support/memory-tracing.js'
import { Researcher } from '../support/researcher-agent.js'

let gate = Promise.resolve()
const step = defineTool({
  name: 'step',
  description: 'Reports one update, then waits for the gate',
  parameters: z.object({ label: z.string() }),
  execute: async ({ label }, ctx) => {
    ctx.update(`${label} working`)
    await gate
    return label
  },
})

describe('serveMcp: served calls and the runtime', () => {
  const tracing = memoryTracing()
  const runtime = new Runtime({
    provider: scripted((request) =>
      request.messages.at(-1)?.role === 'toolResult' ? 'notes' : calls({ name: 'search', args: { q: 'otters' } }),
    ),
    model: 'm',
  })
  const stop = instrument(runtime, { tracer: tracing.tracer })
  let serving: McpServing
  const client = new Client({ name: 'test', version: '1' })
  beforeAll(async () => {
    serving = await serveMcp(
      { runtime, tools: [step], agents: [{ name: 'researcher', description: 'Researches', agent: new Researcher() }] },
      { http: true, port: 0 },
    )
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
  })
  afterAll(async () => {
    stop()
    await client.close()
    await serving.close()
  })

  it('a served agent call is an execute_tool span with its nested exec under it, like any traced call', async () => {
    const result = await client.callTool({ name: 'researcher', arguments: { input: 'otters' } })
    expect(result.isError).toBe(false)
    expect(treeOf(tracing.spans())).toEqual([
      'execute_tool researcher',
      '  invoke_agent researcher',
      '    chat m',
      '    execute_tool search',
      '    chat m',
    ])
    expect(tracing.openNames()).toEqual([])
  })

  it('two calls in flight each get only their own progress, and no listener is left after', async () => {
    let open = () => {}
    gate = new Promise<void>((resolve) => (open = resolve))
    const progress: Record<string, string[]> = { a: [], b: [] }
    const pending = (['a', 'b'] as const).map((label) =>
      client.callTool({ name: 'step', arguments: { label } }, undefined, {
        onprogress: (p) => progress[label]!.push(p.message ?? ''),
      }),
    )
    await expect.poll(() => progress.a!.length + progress.b!.length).toBe(2)
    open()
    await Promise.all(pending)
    expect(progress).toEqual({ a: ['a working'], b: ['b working'] })
    // Progress comes from each call's own stream (runBatch's onEvent): serving adds no runtime listener.
    const listeners = (runtime as unknown as { listeners: { byType: Map<string, unknown[]> } }).listeners.byType
    expect(listeners.get('tool_update')?.length ?? 0).toBe(0)
    expect(listeners.get('*')?.length ?? 0).toBe(0)
  })
})
