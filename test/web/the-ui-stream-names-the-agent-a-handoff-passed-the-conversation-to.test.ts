import type { UIMessage, UIMessageChunk } from 'ai'
import { Agent } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { toUIMessageStream } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { text, toolCalls, useOpenAIWire } from '../support/openai-loop-wire.js'
import { finalMessage } from '../support/ui-message.js'

const wire = useOpenAIWire()

class Billing extends Agent {
  instructions = 'You are billing.'
}

describe('the UI message stream and handoffs', () => {
  it('a data-agent part says who answers once a handoff passed the conversation on (read by the AI SDK)', async () => {
    wire.server.enqueue({ body: toolCalls({ id: 'call_h', name: 'transfer_to_billing' }) }, { body: text('Refunded.') })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    const run = runtime.exec('refund me', { handoffs: [new Billing()], agent: 'desk' })
    const message = await finalMessage(toUIMessageStream(run) as unknown as ReadableStream<UIMessageChunk>)
    const parts = message.parts as (UIMessage['parts'][number] & Record<string, unknown>)[]
    expect(parts.filter((p) => p.type === 'data-agent').map((p) => p.data)).toEqual([{ name: 'billing', from: 'desk' }])
    expect(parts.filter((p) => p.type === 'text').at(-1)?.text).toBe('Refunded.')
    expect((await run).agent).toBe('billing')
  })
})
