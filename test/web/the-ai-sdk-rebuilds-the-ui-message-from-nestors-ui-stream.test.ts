import type { UIMessage, UIMessageChunk } from 'ai'
import { toUIMessageStream, toUIMessageStreamResponse } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { startTrip, tripRuntime } from '../support/trip-web.js'
import { finalMessage } from '../support/ui-message.js'

type Part = UIMessage['parts'][number] & Record<string, unknown>

describe('toUIMessageStream against the AI SDK v6 readUIMessageStream', () => {
  it('rebuilds the answer text, the root tool calls with outputs, nested execs, the approval and receipts', async () => {
    const run = startTrip(tripRuntime())
    const message = await finalMessage(toUIMessageStream(run) as unknown as ReadableStream<UIMessageChunk>)
    const result = await run
    const parts = message.parts as Part[]
    expect(message.id).toBe(run.execId)

    const text = parts.filter((p) => p.type === 'text').map((p) => p.text as string)
    expect(text.at(-1)).toBe(result.text)
    expect(text[0]).toBe("I'll get the facts first.")

    const tools = parts.filter((p) => p.type.startsWith('tool-'))
    expect(tools.map((p) => [p.type, p.state])).toEqual([
      ['tool-research', 'output-available'],
      ['tool-budget', 'output-available'],
      ['tool-save_brief', 'output-available'],
    ])
    expect(tools[2]?.input).toMatchObject({ title: 'Lisbon in May' })
    expect(tools[1]?.output).toBe('Total €743.20 — €156.80 under the €900 budget.')

    // One data-exec part per nested exec (updated in place), at depths 1 and 2, all completed.
    const execs = parts.filter((p) => p.type === 'data-exec').map((p) => p.data as { depth: number; status: string })
    expect(execs.map((e) => e.depth).sort()).toEqual([1, 1, 2, 2])
    expect(execs.every((e) => e.status === 'completed')).toBe(true)
    const approval = parts.find((p) => p.type === 'data-approval')
    expect(approval?.data).toMatchObject({ toolName: 'save_brief', status: 'approved' })
    // Root: research, budget, save_brief; nested: search_notes, read_note ×2, fetch_note ×2, add_costs.
    expect(parts.filter((p) => p.type === 'data-receipt')).toHaveLength(result.receipts.length + 6)
    expect(parts.filter((p) => p.type === 'step-start')).toHaveLength(result.iterationsUsed)
  })

  it("a rejected approval becomes the AI SDK's output-denied tool part, and its data-approval is marked rejected", async () => {
    const run = startTrip(tripRuntime({ approve: () => ({ approved: false, reason: 'no' }) }))
    const parts = (await finalMessage(toUIMessageStream(run) as unknown as ReadableStream<UIMessageChunk>))
      .parts as Part[]
    expect(parts.find((p) => p.type === 'tool-save_brief')).toMatchObject({ state: 'output-denied' })
    expect(parts.find((p) => p.type === 'data-approval')?.data).toMatchObject({ status: 'rejected' })
  })

  it('toUIMessageStreamResponse sends the chunks as SSE data frames with the v1 header, then [DONE]', async () => {
    const run = startTrip(tripRuntime())
    const response = toUIMessageStreamResponse(run)
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1')
    const frames = (await response.text()).split('\n\n').filter(Boolean)
    expect(frames.at(-1)).toBe('data: [DONE]')
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f.slice('data: '.length)) as UIMessageChunk)
    expect(chunks[0]).toEqual({ type: 'start', messageId: run.execId })
    expect(chunks.at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { usage: (await run).totalUsage },
    })
    const message = await finalMessage(
      new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
    )
    expect((message.parts as Part[]).filter((p) => p.type === 'text').at(-1)?.text).toBe((await run).text)
  })
})
