import { NestorError } from '@nestor/core'
import type { ResponseReasoningItem, ResponseStreamEvent } from 'openai/resources/responses/responses'
import type { AssistantBuilder } from '../shared/assistant-builder.js'
import type { StreamParser } from '../shared/stream-parser.js'
import { toUsage } from './usage.js'

/** Where a reasoning item stood among the message's content blocks, so replay keeps the order. */
export type StoredReasoning = { position: number; item: ResponseReasoningItem }
/** What `AssistantMessage.providerData.openaiResponses` holds. Plain JSON (it survives RunState). */
export type ResponsesProviderData = { responseId?: string; reasoning: StoredReasoning[] }

/**
 * Responses API events → builder events. Each function call is its own output item: keyed by
 * its item id, `call_id` becomes the ToolCall id and the item id (`fc_…`) goes to
 * `ToolCall.providerData.itemId`. Reasoning items are kept whole on the message's providerData;
 * their summaries stream as thinking.
 */
export const parseResponsesStream: StreamParser<ResponseStreamEvent> = async (events, builder, signal, emit) => {
  const provider = builder.message.provider
  emit(builder.start())
  const data: ResponsesProviderData = { reasoning: [] }
  const reasoningAt = new Map<string, number>()
  const argumentChars = new Map<string, number>()
  let finished = false
  for await (const event of events) {
    switch (event.type) {
      case 'response.created':
        data.responseId = event.response.id
        builder.message.responseId = event.response.id
        attach(builder, data)
        break
      case 'response.output_item.added': {
        const item = event.item
        if (item.type === 'function_call') {
          const key = item.id ?? `output_${event.output_index}`
          const providerData = item.id ? { itemId: item.id } : undefined
          emit(builder.toolCallStart(key, item.call_id, item.name, providerData))
          argumentChars.set(key, 0)
          if (item.arguments) {
            const delta = builder.toolCallDelta(key, item.arguments)
            argumentChars.set(key, item.arguments.length)
            if (delta) emit(delta)
          }
        } else if (item.type === 'reasoning') {
          reasoningAt.set(item.id, builder.message.content.length)
        }
        break
      }
      case 'response.function_call_arguments.delta': {
        const key = event.item_id || `output_${event.output_index}`
        const delta = builder.toolCallDelta(key, event.delta)
        if (delta) {
          argumentChars.set(key, (argumentChars.get(key) ?? 0) + event.delta.length)
          emit(delta)
        }
        break
      }
      case 'response.output_item.done': {
        const item = event.item
        if (item.type === 'function_call') {
          const key = item.id ?? `output_${event.output_index}`
          // A call whose arguments arrived only in the finished item.
          if ((argumentChars.get(key) ?? 0) === 0 && item.arguments) {
            const delta = builder.toolCallDelta(key, item.arguments)
            if (delta) emit(delta)
          }
          const end = builder.toolCallEnd(key)
          if (end) emit(end)
        } else if (item.type === 'reasoning') {
          data.reasoning.push({ position: reasoningAt.get(item.id) ?? builder.message.content.length, item })
          attach(builder, data)
        }
        break
      }
      case 'response.output_text.delta':
        if (event.delta) emit(builder.text(event.delta))
        break
      case 'response.refusal.delta':
        if (event.delta) emit(builder.refusal(event.delta))
        break
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
        if (event.delta) emit(builder.thinking(event.delta))
        break
      case 'response.completed':
      case 'response.incomplete': {
        const usage = event.response.usage
        if (usage) {
          // cache_write_tokens is on the wire for newer models, not yet in the SDK's types.
          const cacheWrite =
            (usage.input_tokens_details as { cache_write_tokens?: number } | undefined)?.cache_write_tokens ?? 0
          builder.setUsage(
            toUsage(
              usage.input_tokens,
              usage.output_tokens,
              usage.input_tokens_details?.cached_tokens ?? 0,
              usage.total_tokens,
              cacheWrite,
            ),
          )
        }
        attach(builder, data)
        if (event.type === 'response.incomplete') {
          const reason = event.response.incomplete_details?.reason
          if (reason === 'content_filter') {
            throw new NestorError('provider_error', 'response stopped by the content filter', {
              provider,
              retryable: false,
            })
          }
          emit(builder.done('length'))
        } else {
          for (const end of builder.closeAll()) emit(end)
          emit(builder.done('stop'))
        }
        finished = true
        break
      }
      case 'response.failed': {
        attach(builder, data)
        const message = event.response.error?.message ?? 'response failed'
        throw new NestorError('provider_error', message, { provider, retryable: false })
      }
      default:
        break
    }
    if (finished) return
  }
  attach(builder, data)
  if (signal.aborted) throw new NestorError('aborted', 'aborted', { provider })
  throw new NestorError('provider_error', 'stream ended before response.completed', { provider, retryable: true })
}

/** Partial messages keep their reasoning too (an aborted turn is still replayed as history). */
function attach(builder: AssistantBuilder, data: ResponsesProviderData): void {
  if (data.reasoning.length === 0 && data.responseId === undefined) return
  builder.message.providerData = { ...builder.message.providerData, openaiResponses: data }
}
