import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js'
import { NestorError, Runtime, defineTool, type Runtime as RuntimeType } from '@nestor/core'
import { serveMcp, type McpServing } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'

const confirmation = z.object({ confirm: z.boolean(), note: z.string().optional() })

/** Asks before refunding; a refusal the body does not catch becomes the call's error result. */
const refund = defineTool({
  name: 'refund',
  description: 'Refunds 120 EUR after asking',
  parameters: z.object({}),
  execute: async (_args, ctx) => {
    const answer = await ctx.ask('Refund 120 EUR?', confirmation)
    return answer.confirm ? `refunded (${answer.note ?? 'no note'})` : 'not refunded'
  },
})
/** Runs `refund` one exec down, so the question is asked at depth 1. */
const desk = defineTool({
  name: 'desk',
  description: 'Hands the refund to a nested exec',
  parameters: z.object({}),
  execute: async (_args, ctx) => (await ctx.exec('refund the customer', { tools: [refund] })).text,
})
/** Catches the refusal and says its code. */
const careful = defineTool({
  name: 'careful',
  description: 'Asks, and reports what came back',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    ctx.ask('Go on?', confirmation).then(
      () => 'answered',
      (error: unknown) => (NestorError.isInstance(error) ? error.code : 'not a NestorError'),
    ),
})
const nested = defineTool({
  name: 'address',
  description: 'Asks for a whole address',
  parameters: z.object({}),
  execute: (_args, ctx) => ctx.ask('Where to?', z.object({ address: z.object({ street: z.string() }) })),
})

describe('serveMcp turns a served call’s ctx.ask into an elicitation request', () => {
  let serving: McpServing | undefined
  let client: Client | undefined
  afterEach(async () => {
    await client?.close()
    await serving?.close()
  })

  /** Serves the tools over Streamable HTTP; the client answers elicitations with `answer` (none: no capability). */
  async function connect(runtime: RuntimeType, answer?: (request: ElicitRequest) => ElicitResult) {
    serving = await serveMcp({ runtime, tools: [refund, desk, careful, nested] }, { http: true, port: 0 })
    client = new Client({ name: 'test', version: '1' }, { capabilities: answer ? { elicitation: { form: {} } } : {} })
    if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request))
    await client.connect(new StreamableHTTPClientTransport(serving.url!))
    return client
  }
  const quiet = () => new Runtime({ provider: scripted([]), model: 'm' })
  const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0]!.text

  it('asks the question with its schema and goes on with the accepted answer, one exec down', async () => {
    const asked: ElicitRequest['params'][] = []
    const runtime = new Runtime({ provider: scripted([calls({ name: 'refund' }), 'refund done']), model: 'm' })
    const c = await connect(runtime, (request) => {
      asked.push(request.params)
      return { action: 'accept', content: { confirm: true, note: 'goodwill' } }
    })
    const direct = await c.callTool({ name: 'refund', arguments: {} })
    expect(direct).toMatchObject({ isError: false, content: [{ type: 'text', text: 'refunded (goodwill)' }] })
    const deep = await c.callTool({ name: 'desk', arguments: {} })
    expect(deep).toMatchObject({ isError: false, content: [{ text: 'refund done' }] })
    expect(asked).toHaveLength(2)
    expect(asked[0]).toMatchObject({
      message: 'Refund 120 EUR?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' }, note: { type: 'string' } },
        required: ['confirm'],
      },
    })
  })

  it.each([
    ['decline', 'declined'],
    ['cancel', 'cancelled'],
  ] as const)('a %s is input_unavailable in the body, and the call gets an error result', async (action, word) => {
    const c = await connect(quiet(), () => ({ action }))
    const result = await c.callTool({ name: 'refund', arguments: {} })
    expect(result.isError).toBe(true)
    expect(text(result)).toBe(`the MCP client's user ${word} "Refund 120 EUR?"`)
    expect(text(await c.callTool({ name: 'careful', arguments: {} }))).toBe('input_unavailable')
  })

  it('a schema outside the elicitation subset fails the call without asking', async () => {
    let asked = 0
    const c = await connect(quiet(), () => {
      asked++
      return { action: 'accept', content: {} }
    })
    const result = await c.callTool({ name: 'address', arguments: {} })
    expect(result.isError).toBe(true)
    expect(text(result)).toMatch(
      /^ctx.ask\("Where to\?"\) cannot be asked over MCP: property address is not a primitive/,
    )
    expect(asked).toBe(0)
  })

  it('a client without the elicitation capability gets input_unavailable as an error result', async () => {
    const c = await connect(quiet())
    const result = await c.callTool({ name: 'refund', arguments: {} })
    expect(result.isError).toBe(true)
    expect(text(result)).toContain('it did not declare the elicitation capability')
    expect(text(await c.callTool({ name: 'careful', arguments: {} }))).toBe('input_unavailable')
  })
})
