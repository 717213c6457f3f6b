import type { ConverseStreamOutput } from '@aws-sdk/client-bedrock-runtime'
import type { StopReason } from '@nestor/core'
import { NestorError } from '@nestor/core'
import type { StreamParser } from '../shared/stream-parser.js'

/**
 * Reads the ConverseStream output into the builder. Block indexes key the open tool calls.
 * Exception members of the union (throttling, model stream errors…) are thrown, to be classified
 * and retried like HTTP failures. `metadata` (usage) follows `messageStop`, so `done` is emitted
 * at the end of the stream, not at `messageStop`.
 */
export const parseConverseStream: StreamParser<ConverseStreamOutput> = async (stream, builder, _signal, emit) => {
  const provider = builder.message.provider
  emit(builder.start())
  let stopReason: StopReason | undefined
  for await (const event of stream) {
    if (event.contentBlockStart) {
      const { contentBlockIndex, start } = event.contentBlockStart
      const toolUse = start?.toolUse
      if (toolUse) emit(builder.toolCallStart(contentBlockIndex ?? 0, toolUse.toolUseId, toolUse.name ?? ''))
    } else if (event.contentBlockDelta) {
      const { contentBlockIndex, delta } = event.contentBlockDelta
      const key = contentBlockIndex ?? 0
      if (!delta) continue
      if (delta.text !== undefined) {
        if (delta.text !== '') emit(builder.text(delta.text))
      } else if (delta.toolUse) {
        const out = builder.toolCallDelta(key, delta.toolUse.input ?? '')
        if (out) emit(out)
      } else if (delta.reasoningContent) {
        const reasoning = delta.reasoningContent
        if (reasoning.text !== undefined) emit(builder.thinking(reasoning.text))
        else if (reasoning.signature !== undefined) builder.thinkingSignature(reasoning.signature)
        else if (reasoning.redactedContent !== undefined) {
          const data = Buffer.from(reasoning.redactedContent).toString('base64')
          builder.thinkingBlock('', { signature: data, redacted: true })
        }
      }
    } else if (event.contentBlockStop) {
      const out = builder.toolCallEnd(event.contentBlockStop.contentBlockIndex ?? 0)
      if (out) emit(out)
    } else if (event.messageStop) {
      stopReason = toStopReason(event.messageStop.stopReason, provider)
    } else if (event.metadata?.usage) {
      const u = event.metadata.usage
      const usage = {
        input: u.inputTokens ?? 0,
        output: u.outputTokens ?? 0,
        cacheRead: u.cacheReadInputTokens ?? 0,
        cacheWrite: u.cacheWriteInputTokens ?? 0,
      }
      builder.setUsage(u.totalTokens === undefined ? usage : { ...usage, total: u.totalTokens })
    } else {
      const exception =
        event.internalServerException ??
        event.modelStreamErrorException ??
        event.validationException ??
        event.throttlingException ??
        event.serviceUnavailableException
      if (exception) throw exception
    }
  }
  if (stopReason === undefined)
    throw new NestorError('provider_error', `${provider}: stream ended without messageStop`, {
      provider,
      retryable: true,
    })
  for (const out of builder.closeAll()) emit(out)
  emit(builder.done(stopReason))
}

/** Converse stop reasons; a malformed output or tool use is a failure, not an answer. */
function toStopReason(reason: string | undefined, provider: string): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'toolUse'
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'malformed_model_output':
    case 'malformed_tool_use':
      throw new NestorError('provider_error', `${provider}: the model stopped with ${reason}`, {
        provider,
        retryable: false,
      })
    default:
      // end_turn, stop_sequence, guardrail_intervened, content_filtered, and future values.
      return 'stop'
  }
}
