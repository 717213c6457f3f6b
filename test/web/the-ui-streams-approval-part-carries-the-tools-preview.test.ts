import type { UIMessageChunk } from 'ai'
import { toUIMessageStream } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { startTrip, tripRuntime } from '../support/trip-web.js'
import { finalMessage } from '../support/ui-message.js'

async function chunksOf(stream: ReadableStream<UIMessageChunk>): Promise<UIMessageChunk[]> {
  const chunks: UIMessageChunk[] = []
  for await (const chunk of stream as unknown as AsyncIterable<UIMessageChunk>) chunks.push(chunk)
  return chunks
}

type ApprovalData = { toolCallId: string; toolName: string; status: string; preview?: unknown }

describe("the UI stream's approval part", () => {
  it("carries the preview of the example's save_brief, pending and then approved, and the AI SDK keeps it on the part", async () => {
    const run = startTrip(tripRuntime({ approve: () => true }))
    const chunks = await chunksOf(toUIMessageStream(run) as unknown as ReadableStream<UIMessageChunk>)
    // Copies: the AI SDK updates a data part in place as later chunks for it arrive.
    const message = await finalMessage(
      new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(structuredClone(x))), c.close()) }),
    )
    const approvals = chunks.flatMap((c) => (c.type === 'data-approval' ? [c.data as ApprovalData] : []))
    expect(approvals.map((a) => [a.toolName, a.status])).toEqual([
      ['save_brief', 'pending'],
      ['save_brief', 'approved'],
    ])
    for (const approval of approvals) {
      expect(typeof approval.preview).toBe('string')
      expect(approval.preview).toMatch(/^--- \/dev\/null\n\+\+\+ .+\n\+ /)
    }
    const part = message.parts.find((p) => p.type === 'data-approval') as { data: ApprovalData } | undefined
    expect(part?.data.status).toBe('approved')
    expect(part?.data.preview).toBe(approvals[0]!.preview)
  })
})
