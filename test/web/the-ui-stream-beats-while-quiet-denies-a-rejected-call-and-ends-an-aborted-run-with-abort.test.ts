import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai'
import { ApprovalGate, toUIMessageStreamResponse } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { startTrip, tripRuntime } from '../support/trip-web.js'

/** The SSE blocks of a UI stream response as they arrive, until `stop` says so. */
async function blocks(response: Response, stop: (block: string) => boolean): Promise<string[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const seen: string[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return seen
    buffer += decoder.decode(value, { stream: true })
    const parts = buffer.split('\n\n')
    buffer = parts.pop() as string
    for (const block of parts) {
      seen.push(block)
      if (stop(block)) {
        await reader.cancel()
        return seen
      }
    }
  }
}

const chunksOf = (seen: string[]) =>
  seen.filter((b) => b.startsWith('data: {')).map((b) => JSON.parse(b.slice(6)) as UIMessageChunk)

describe('the UI message stream over a run that waits, is rejected or is aborted', () => {
  it('sends heartbeat comments while the run waits for an approval', async () => {
    const gate = new ApprovalGate()
    const run = startTrip(tripRuntime({ approve: gate.approve }))
    const seen = await blocks(toUIMessageStreamResponse(run, { heartbeatMs: 20 }), (b) => b === ': heartbeat')
    expect(gate.pending(run.execId)).toHaveLength(1)
    expect(chunksOf(seen).some((c) => c.type === 'data-approval')).toBe(true)
    run.abort()
    await run
  })

  it("ends an aborted run with the protocol's abort chunk, which the AI SDK reads without an error", async () => {
    const gate = new ApprovalGate()
    const run = startTrip(tripRuntime({ approve: gate.approve }))
    const response = toUIMessageStreamResponse(run, { heartbeatMs: 0 })
    while (gate.pending(run.execId).length === 0) await new Promise((r) => setTimeout(r, 10))
    run.abort('the user left')
    const text = await response.text()
    const chunks = chunksOf(text.trim().split('\n\n'))
    expect(chunks.at(-1)).toMatchObject({ type: 'abort' })
    expect(chunks.some((c) => c.type === 'finish')).toBe(false)
    const errors: unknown[] = []
    let last: UIMessage | undefined
    const stream = new ReadableStream<UIMessageChunk>({
      start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()),
    })
    for await (const message of readUIMessageStream({ stream, onError: (e) => errors.push(e) })) last = message
    expect(errors).toEqual([])
    expect(last?.id).toBe(run.execId)
  })

  it('a rejected approval is a tool-output-denied chunk for that call', async () => {
    const run = startTrip(tripRuntime({ approve: () => ({ approved: false, reason: 'no' }) }))
    const chunks = chunksOf((await toUIMessageStreamResponse(run, { heartbeatMs: 0 }).text()).trim().split('\n\n'))
    expect(chunks).toContainEqual({ type: 'tool-output-denied', toolCallId: 'call_save' })
    expect(chunks.filter((c) => c.type === 'tool-output-error' && c.toolCallId === 'call_save')).toEqual([])
  })
})
