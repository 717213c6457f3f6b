import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { Runtime, defineTool, type ToolResultMessage } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems, textOf } from '../support/run.js'

const results = (history: { role: string }[]) => history.filter((m): m is ToolResultMessage => m.role === 'toolResult')

describe('tools', () => {
  it('zod v4, zod v3 and raw JSON Schema parameters all reach the model as non-empty JSON Schema', async () => {
    const v4 = defineTool({
      name: 'v4',
      description: 'd',
      parameters: z.object({ city: z.string().describe('City') }),
      execute: () => 'ok',
    })
    const v3 = defineTool({
      name: 'v3',
      description: 'd',
      parameters: z3.object({ city: z3.string() }),
      execute: () => 'ok',
    })
    const raw = defineTool({
      name: 'raw',
      description: 'd',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
      execute: () => 'ok',
    })
    const provider = scripted(['fine'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [v4, v3, raw] })
    const tools = provider.requests[0]?.tools ?? []
    expect(tools.map((t) => t.name)).toEqual(['v4', 'v3', 'raw'])
    for (const tool of tools) {
      expect(tool.parameters).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      })
    }
    expect(tools[0]?.parameters).toMatchObject({ properties: { city: { description: 'City' } } })
  })

  it('invalid arguments become an error result listing the issues, for zod and for JSON Schema tools', async () => {
    let ran = 0
    const v4 = defineTool({
      name: 'v4',
      description: 'd',
      parameters: z.object({ n: z.number() }),
      execute: () => ran++,
    })
    const raw = defineTool({
      name: 'raw',
      description: 'd',
      parameters: {
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
        additionalProperties: false,
      },
      execute: () => ran++,
    })
    const provider = scripted([
      calls({ name: 'v4', args: { n: 'x' } }, { name: 'raw', args: { n: 1, extra: true } }),
      'ok',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [v4, raw] })
    const [a, b] = results(result.history)
    expect(ran).toBe(0)
    expect(a?.isError).toBe(true)
    expect(textOf(a!)).toMatch(/invalid arguments for v4:\n- n: /)
    expect(b?.isError).toBe(true)
    expect(textOf(b!)).toMatch(/invalid arguments for raw:[\s\S]*additional properties 'extra'/)
    expect(result.receipts.map((r) => r.status)).toEqual(['invalid_arguments', 'invalid_arguments'])
    expect(historyProblems(result.history)).toEqual([])
  })

  it('arguments that are not JSON become an invalid-arguments error result', async () => {
    let ran = false
    const t = defineTool({ name: 't', description: 'd', parameters: z.object({}), execute: () => (ran = true) })
    const provider = scripted([{ content: [{ type: 'toolCall', name: 't', arguments: '{"a": ' }] }, 'ok'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [t] })
    expect(ran).toBe(false)
    expect(textOf(results(result.history)[0]!)).toContain('not a JSON object')
  })

  it('an unknown tool becomes an error result naming the available tools, and the loop goes on', async () => {
    const a = defineTool({ name: 'alpha', description: 'd', parameters: z.object({}), execute: () => 'A' })
    const provider = scripted([calls({ name: 'gamma' }), 'recovered'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    expect(result.status).toBe('completed')
    expect(textOf(results(result.history)[0]!)).toBe('unknown tool "gamma". Available tools: alpha')
    expect(result.receipts[0]?.status).toBe('unknown_tool')
  })

  it('return values: a string is one text part, { content, details } passes through with details kept from the model, others are JSON', async () => {
    const s = defineTool({ name: 's', description: 'd', parameters: z.object({}), execute: () => 'plain' })
    const c = defineTool({
      name: 'c',
      description: 'd',
      parameters: z.object({}),
      execute: () => ({ content: [{ type: 'text' as const, text: 'shown' }], details: { secretUiOnly: 1 } }),
    })
    const j = defineTool({ name: 'j', description: 'd', parameters: z.object({}), execute: () => ({ a: 1, b: [2] }) })
    const provider = scripted([calls({ name: 's' }, { name: 'c' }, { name: 'j' }), 'ok'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [s, c, j] })
    const [rs, rc, rj] = results(result.history)
    expect(rs?.content).toEqual([{ type: 'text', text: 'plain' }])
    expect(rc?.content).toEqual([{ type: 'text', text: 'shown' }])
    expect(rc?.details).toEqual({ secretUiOnly: 1 })
    expect(rj?.content).toEqual([{ type: 'text', text: '{"a":1,"b":[2]}' }])
    // The model sees content only: details never reach a provider request's text.
    expect(JSON.stringify(provider.requests[1]?.messages.map((m) => ('content' in m ? m.content : '')))).not.toContain(
      'secretUiOnly',
    )
  })

  it('accepts plain { spec, execute } objects, validated against their JSON Schema', async () => {
    const seen: unknown[] = []
    const plain = {
      spec: {
        name: 'plain',
        description: 'd',
        parameters: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] },
      },
      execute: (args: { x: number }) => {
        seen.push(args)
        return 'ok'
      },
    }
    const provider = scripted([calls({ name: 'plain', args: { x: 'no' } }, { name: 'plain', args: { x: 2 } }), 'ok'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [plain] })
    expect(seen).toEqual([{ x: 2 }])
    expect(result.receipts.map((r) => r.status)).toEqual(['invalid_arguments', 'ok'])
  })

  it('a throwing tool becomes an error result with its message and the loop continues', async () => {
    const bad = defineTool({
      name: 'bad',
      description: 'd',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full')
      },
    })
    const provider = scripted([calls({ name: 'bad' }), 'sorry'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [bad] })
    expect(result.status).toBe('completed')
    const r = results(result.history)[0]!
    expect(r.isError).toBe(true)
    expect(textOf(r)).toBe('disk full')
    expect(result.receipts[0]?.status).toBe('tool_error')
  })

  it('tool_update events carry progress from ctx.update', async () => {
    const slow = defineTool({
      name: 'slow',
      description: 'd',
      parameters: z.object({}),
      execute: (_a, ctx) => {
        ctx.update({ pct: 50 })
        return 'done'
      },
    })
    const run = new Runtime({ provider: scripted([calls({ name: 'slow' }), 'ok']), model: 'm' }).exec('go', {
      tools: [slow],
    })
    const updates: unknown[] = []
    for await (const e of run) if (e.type === 'tool_update') updates.push(e.update)
    expect(updates).toEqual([{ pct: 50 }])
  })
})
