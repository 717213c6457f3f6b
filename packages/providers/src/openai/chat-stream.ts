import type { StopReason } from '@nestor/core'
import { NestorError } from '@nestor/core'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { StreamParser } from '../shared/stream-parser.js'
import { toUsage } from './usage.js'

/**
 * Chat Completions chunks → builder events. Tool calls are accumulated by their `index` (id and
 * name only arrive in the first fragment of each index; arguments are string fragments that may
 * split a JSON token). The usage chunk comes after the finish reason, so the message is finished
 * only when the stream ends; a stream that ends without a finish reason was cut off.
 */
export const parseChatStream: StreamParser<ChatCompletionChunk> = async (chunks, builder, signal, emit) => {
  const provider = builder.message.provider
  emit(builder.start())
  let finish: string | undefined
  for await (const chunk of chunks) {
    if (chunk.id) builder.message.responseId ??= chunk.id
    if (chunk.usage) {
      const u = chunk.usage
      builder.setUsage(
        toUsage(u.prompt_tokens, u.completion_tokens, u.prompt_tokens_details?.cached_tokens ?? 0, u.total_tokens),
      )
    }
    const choice = chunk.choices[0]
    if (!choice) continue
    const delta = choice.delta as ChatCompletionChunk.Choice.Delta & {
      reasoning_content?: string | null
      reasoning?: string | null
    }
    // Not part of OpenAI's own API: OpenAI-compatible servers stream reasoning this way.
    const reasoning = delta.reasoning_content ?? delta.reasoning
    if (typeof reasoning === 'string' && reasoning !== '') emit(builder.thinking(reasoning))
    if (typeof delta.content === 'string' && delta.content !== '') emit(builder.text(delta.content))
    if (typeof delta.refusal === 'string' && delta.refusal !== '') emit(builder.refusal(delta.refusal))
    for (const call of delta.tool_calls ?? []) {
      if (!builder.isOpen(call.index)) emit(builder.toolCallStart(call.index, call.id, call.function?.name ?? ''))
      const args = call.function?.arguments
      if (args) {
        const event = builder.toolCallDelta(call.index, args)
        if (event) emit(event)
      }
    }
    if (choice.finish_reason) finish = choice.finish_reason
  }
  // The stream reader ends quietly when the request is aborted; that is not a finished message.
  if (signal.aborted) throw new NestorError('aborted', 'aborted', { provider })
  if (finish === undefined) {
    throw new NestorError('provider_error', 'stream ended before a finish_reason', { provider, retryable: true })
  }
  if (finish === 'content_filter') {
    throw new NestorError('provider_error', 'response stopped by the content filter', { provider, retryable: false })
  }
  const stopReason = chatStopReason(finish)
  // Calls cut off by the length limit are not announced as complete.
  if (stopReason !== 'length') for (const event of builder.closeAll()) emit(event)
  emit(builder.done(stopReason))
}

/**
 * finish_reason → StopReason. `tool_calls` (and the legacy `function_call`) map to 'stop': the
 * builder turns a message that holds calls into 'toolUse', and one that holds none stays a
 * plain stop rather than promising calls that are not there.
 */
export function chatStopReason(finish: string): StopReason {
  return finish === 'length' ? 'length' : 'stop'
}
