import { NestorError } from '@nestor/core'
import { AssistantBuilder } from '@nestor/providers/provider-kit'
import { describe, expect, it } from 'vitest'

describe('AssistantBuilder, the one way adapters shape a message', () => {
  it('a thinking block of its own is never merged into the block before it, and deltas continue it', () => {
    const builder = new AssistantBuilder('p', 'm')
    builder.thinking('first ')
    builder.thinking('thought')
    const start = builder.thinkingBlock('second')
    builder.thinking(' thought')
    builder.thinkingSignature('sig-')
    builder.thinkingSignature('2')
    expect(start).toEqual({ type: 'thinking_delta', delta: 'second' })
    expect(builder.message.content).toEqual([
      { type: 'thinking', thinking: 'first thought' },
      { type: 'thinking', thinking: 'second thought', signature: 'sig-2' },
    ])
  })

  it('a redacted block keeps its data as the signature, streams nothing, and counts as content', () => {
    const builder = new AssistantBuilder('p', 'm')
    expect(builder.thinkingBlock('', { signature: 'opaque', redacted: true })).toBeUndefined()
    builder.thinking('visible')
    expect(builder.hasContent).toBe(true)
    expect(builder.message.content).toEqual([
      { type: 'thinking', thinking: '', signature: 'opaque', redacted: true },
      { type: 'thinking', thinking: 'visible' },
    ])
  })

  it('fail closes the calls still open, keeps what streamed and ends with the error', () => {
    const builder = new AssistantBuilder('p', 'm')
    builder.text('partial')
    builder.toolCallStart(0, 'call_1', 'lookup')
    builder.toolCallDelta(0, '{"q":"x"}')
    const error = new NestorError('provider_error', 'stream broke', { provider: 'p', retryable: false })
    const event = builder.fail(error)
    expect(event).toEqual({ type: 'error', message: builder.message, error })
    expect(builder.message).toMatchObject({
      stopReason: 'error',
      errorMessage: 'stream broke',
      content: [
        { type: 'text', text: 'partial' },
        { type: 'toolCall', id: 'call_1', name: 'lookup', arguments: { q: 'x' } },
      ],
    })
    expect(builder.isOpen(0)).toBe(false)
  })

  it('an aborted failure is marked aborted, not error', () => {
    const builder = new AssistantBuilder('p', 'm')
    builder.fail(new NestorError('aborted', 'aborted'), 'aborted')
    expect(builder.message.stopReason).toBe('aborted')
  })
})
