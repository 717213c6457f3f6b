import type { UIMessageChunk } from 'ai'
import { Runtime, defineTool, type InputRequest } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { ApprovalGate, runRoutes, toNodeListener, toUIMessageStream, type InputPartData } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { jsonPost, serve } from '../support/trip-web.js'
import { finalMessage } from '../support/ui-message.js'

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = []
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk)
  return chunks
}

describe('a question over the web routes', () => {
  it('streams pending then answered as a data-input part; POST …/answer checks the answer before it answers', async () => {
    const gate = new ApprovalGate()
    let asked!: (request: InputRequest) => void
    const waiting = new Promise<InputRequest>((resolve) => (asked = resolve))
    const bill = defineTool({
      name: 'bill',
      description: 'Bills an account',
      parameters: z.object({}),
      execute: async (_args, ctx) =>
        `billed ${(await ctx.ask('Which account?', z.object({ account: z.enum(['personal', 'work']) }))).account}`,
    })
    const provider = scripted((r: ModelRequest) =>
      r.messages.some((m) => m.role === 'toolResult')
        ? 'done'
        : { content: [{ type: 'toolCall', id: 'call_bill', name: 'bill', arguments: {} }] },
    )
    const runtime = new Runtime({ provider, model: 'm', ask: (request) => (asked(request), gate.ask(request)) })
    const routes = runRoutes({ runtime, approvals: gate, authorize: () => true, prefix: '/runs' })
    const http = await serve(
      toNodeListener(async (request) => (await routes(request)) ?? new Response(null, { status: 404 })),
    )
    try {
      const run = runtime.exec('bill me', { tools: [bill] })
      const streamed = chunksOf(toUIMessageStream(run) as unknown as ReadableStream<UIMessageChunk>)
      const request = await waiting
      const post = async (body: unknown) => {
        const response = await fetch(`${http.url}/runs/${run.execId}/answer`, jsonPost(body))
        return {
          status: response.status,
          body: (await response.json()) as { error?: { code: string; issues?: string[] } },
        }
      }
      const info = (await (await fetch(`${http.url}/runs/${run.execId}`)).json()) as { inputs: unknown[] }
      expect(info.inputs).toEqual([expect.objectContaining({ id: request.id, question: 'Which account?' })])
      expect(await post({ value: 'work' })).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } })
      expect(await post({ id: 'input_nope', value: {} })).toMatchObject({
        status: 404,
        body: { error: { code: 'not_waiting' } },
      })
      const refused = await post({ id: request.id, value: { account: 'holiday' } })
      expect(refused).toMatchObject({ status: 400, body: { error: { code: 'bad_answer' } } })
      expect(refused.body.error?.issues?.join()).toMatch(/account/)
      expect(await post({ id: request.id, value: { account: 'work' } })).toMatchObject({ status: 202 })

      const result = await run
      expect(result.status).toBe('completed')
      expect(result.history.find((m) => m.role === 'toolResult')).toMatchObject({ content: [{ text: 'billed work' }] })
      const chunks = await streamed
      const parts = chunks.flatMap((c) => (c.type === 'data-input' ? [c.data as InputPartData] : []))
      expect(parts.map((p) => [p.id, p.status])).toEqual([
        [request.id, 'pending'],
        [request.id, 'answered'],
      ])
      expect(parts[0]?.schema).toMatchObject({ properties: { account: { enum: ['personal', 'work'] } } })
      const message = await finalMessage(
        new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
      )
      expect(message.parts.find((p) => p.type === 'data-input')).toMatchObject({ data: { status: 'answered' } })
    } finally {
      await http.close()
    }
  })
})
