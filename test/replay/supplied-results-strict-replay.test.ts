import { Runtime, suppliedResults, type Provider } from '@nestor/core'
import { openai, replay } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { filesIn, tempDir } from '../support/cassette-files.js'
import { historyProblems } from '../support/run.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { nativeToolCall, textAnswer } from './chat-sse.js'

// The strict-replay lesson: tool results are strings supplied up front (no callback dispatches
// them), the model's turns come from a recording, and the final structured answer is checked on
// its own, against the supplied result, not against what the run says about itself.
const SUPPLIED = JSON.stringify({ orderId: 'A-17', status: 'shipped', items: 3 })
const specs = [
  {
    name: 'get_order',
    description: 'An order by id',
    parameters: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
  },
]
const Answer = z.object({ orderId: z.string(), status: z.string(), itemCount: z.number() })

const run = (provider: Provider, supplied: string) =>
  new Runtime({ provider, model: 'gpt-4o-mini', system: 'You report order states.' }).exec('Where is order A-17?', {
    tools: suppliedResults({ get_order: supplied }, specs),
    output: Answer,
    maxIterations: 2,
  })

describe('supplied results under strict replay', () => {
  let wire: WireServer | undefined
  afterEach(async () => {
    await wire?.close()
    wire = undefined
  })

  async function record(): Promise<string> {
    wire = await startWireServer()
    wire.enqueue(
      { body: nativeToolCall('call_order', 'get_order', ['{"id":', '"A-17"}']) },
      { body: textAnswer(['{"orderId":"A-17",', '"status":"shipped",', '"itemCount":3}']) },
    )
    const dir = await tempDir()
    const live = openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-recording-key', maxRetries: 0 })
    const recorded = await run(replay({ provider: live, dir, mode: 'record' }), SUPPLIED)
    expect(recorded.status).toBe('completed')
    // The supplied string is what went over the wire as the tool's result.
    const second = wire.requests[1]?.json as { messages: { role: string; content: unknown }[] }
    expect(second.messages.find((m) => m.role === 'tool')?.content).toBe(SUPPLIED)
    await wire.close()
    wire = undefined
    expect(await filesIn(dir)).toHaveLength(2)
    return dir
  }

  it('replays the recorded run offline within two iterations, and the typed answer matches the supplied result', async () => {
    const dir = await record()
    const result = await run(replay({ dir, mode: 'strict' }), SUPPLIED)
    expect(result.status).toBe('completed')
    expect(result.iterationsUsed).toBe(2)
    expect(historyProblems(result.history)).toEqual([])
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([['get_order', 'ok']])

    // Checked independently: the final text parsed here, field by field against the supplied result.
    const order = JSON.parse(SUPPLIED) as { orderId: string; status: string; items: number }
    const answer = JSON.parse(result.text) as Record<string, unknown>
    expect(answer).toEqual({ orderId: order.orderId, status: order.status, itemCount: order.items })
    expect(result.output).toEqual(answer)
  })

  it('another supplied result is another request: strict replay fails replay_miss instead of answering', async () => {
    const dir = await record()
    const result = await run(
      replay({ dir, mode: 'strict' }),
      JSON.stringify({ orderId: 'A-17', status: 'lost', items: 0 }),
    )
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('replay_miss')
    expect(result.output).toBeUndefined()
    expect(historyProblems(result.history)).toEqual([])
  })
})
