import type { Usage } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import type { AssistantBuilder } from '../shared/assistant-builder.js'
import type { StreamParser } from '../shared/stream-parser.js'
import { setTextSignature, textSignatures } from './signatures.js'
import type { GeminiChunk, GeminiPart, GeminiUsageMetadata } from './wire-types.js'

/** Gemini's stream chunks → events: reads each chunk's parts, then the terminal event at the end. */
export const parseGeminiStream: StreamParser<GeminiChunk> = async (chunks, builder, _signal, emit) => {
  const reader = new GeminiStreamReader(builder)
  emit(builder.start())
  for await (const chunk of chunks) for (const event of reader.read(chunk)) emit(event)
  emit(reader.finish())
}

/**
 * Turns raw stream chunks into ModelEvents on one AssistantBuilder.
 *
 * It reads each chunk's own `candidates[0].content.parts` and nothing the SDK aggregates: the
 * 0.24 SDK's aggregated response repeats the last functionCall of a chunk N times and drops
 * `thoughtSignature`, and its `text()` mixes in thought summaries.
 *
 * Gemini sends each functionCall whole (args as an object), so one part yields a complete
 * start/delta/end triple. A part with a signature becomes a block of its own: Gemini asks that
 * signed parts are never merged with neighbours, and replay mirrors the blocks one to one.
 */
class GeminiStreamReader {
  private finishReason: string | undefined
  private finishMessage: string | undefined
  private blockReason: string | undefined
  private calls = 0
  private readonly provider: string

  constructor(private readonly builder: AssistantBuilder) {
    this.provider = builder.message.provider
  }

  *read(chunk: GeminiChunk): Generator<ModelEvent> {
    if (chunk.usageMetadata) this.builder.setUsage(toUsage(chunk.usageMetadata))
    if (chunk.responseId) this.builder.message.responseId ??= chunk.responseId
    if (chunk.promptFeedback?.blockReason) this.blockReason = chunk.promptFeedback.blockReason
    const candidate = chunk.candidates?.[0]
    if (!candidate) return
    for (const part of candidate.content?.parts ?? []) yield* this.part(part)
    if (candidate.finishReason) this.finishReason = candidate.finishReason
    if (candidate.finishMessage) this.finishMessage = candidate.finishMessage
  }

  /** The terminal event once the stream ended. Throws a retryable error for a truncated stream. */
  finish(): ModelEvent {
    const reason = this.finishReason
    if (reason === undefined) {
      if (this.blockReason) return this.fail(`Gemini blocked the prompt (blockReason ${this.blockReason})`)
      throw new NestorError('provider_error', 'Gemini stream ended without a finish reason', {
        provider: this.provider,
        retryable: true,
      })
    }
    if (reason === 'STOP' || reason === 'FINISH_REASON_UNSPECIFIED') return this.builder.done('stop')
    if (reason === 'MAX_TOKENS') return this.builder.done('length')
    // SAFETY, RECITATION, LANGUAGE, BLOCKLIST, PROHIBITED_CONTENT, SPII, MALFORMED_FUNCTION_CALL,
    // OTHER and any value added later: the answer is unusable, so it is an error result.
    const detail = this.finishMessage ? `: ${this.finishMessage}` : ''
    return this.fail(`Gemini stopped the response with finishReason ${reason}${detail}`)
  }

  private fail(message: string): ModelEvent {
    return this.builder.fail(new NestorError('provider_error', message, { provider: this.provider, retryable: false }))
  }

  private *part(part: GeminiPart): Generator<ModelEvent> {
    const signature = typeof part.thoughtSignature === 'string' ? part.thoughtSignature : undefined
    if (part.functionCall) {
      const key = `call${this.calls++}`
      const args = isRecord(part.functionCall.args) ? part.functionCall.args : {}
      const providerData = signature === undefined ? undefined : { thoughtSignature: signature }
      yield this.builder.toolCallStart(key, part.functionCall.id, part.functionCall.name, providerData)
      const delta = this.builder.toolCallDelta(key, JSON.stringify(args))
      if (delta) yield delta
      const end = this.builder.toolCallEnd(key, args)
      if (end) yield end
      return
    }
    if (typeof part.text !== 'string') return
    if (part.thought === true) {
      if (signature === undefined) {
        if (part.text !== '') yield this.builder.thinking(part.text)
      } else {
        const start = this.builder.thinkingBlock(part.text, { signature })
        if (start) yield start
      }
      return
    }
    yield* this.text(part.text, signature)
  }

  private *text(text: string, signature: string | undefined): Generator<ModelEvent> {
    if (text === '' && signature === undefined) return
    const content = this.builder.message.content
    const lastIndex = content.length - 1
    const last = content[lastIndex]
    const lastSigned = last?.type === 'text' && textSignatures(this.builder.message)[String(lastIndex)] !== undefined
    // Start a fresh block when either this part or the previous text block is signed.
    if (last?.type === 'text' && (lastSigned || (signature !== undefined && last.text !== '')))
      content.push({ type: 'text', text: '' })
    else if (last?.type !== 'text' && signature !== undefined && text === '') content.push({ type: 'text', text: '' })
    if (text !== '') yield this.builder.text(text)
    if (signature !== undefined) setTextSignature(this.builder.message, content.length - 1, signature)
  }
}

/**
 * `usageMetadata` is cumulative on every chunk, so each one replaces the last. Gemini counts the
 * cached part inside `promptTokenCount` and thoughts outside `candidatesTokenCount`.
 */
export function toUsage(meta: GeminiUsageMetadata): Usage {
  const cached = meta.cachedContentTokenCount ?? 0
  const input = Math.max(0, (meta.promptTokenCount ?? 0) - cached)
  const output = (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0)
  return { input, output, cacheRead: cached, cacheWrite: 0, total: meta.totalTokenCount ?? input + output + cached }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
