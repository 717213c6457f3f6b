import type { LanguageModelV3FinishReason, LanguageModelV3StreamPart, LanguageModelV3Usage } from '@ai-sdk/provider'
import type { StopReason, Usage } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { parseArguments, type AssistantBuilder } from '../shared/assistant-builder.js'
import type { StreamParser } from '../shared/stream-parser.js'
import { metadataKey } from './convert-messages.js'

/** A call or result the provider ran itself (web search…): kept as data, never run by Nestor. */
export type ProviderExecutedPart = {
  type: 'tool-call' | 'tool-result'
  toolCallId: string
  toolName: string
  input?: string
  result?: unknown
  isError?: boolean
}

/**
 * A V3 stream's parts as an async iterable. The reader is cancelled when `signal` aborts, since a
 * model may ignore its `abortSignal`; a read that ends after the abort fails as aborted.
 */
export async function* readableParts<T>(stream: ReadableStream<T>, signal: AbortSignal): AsyncGenerator<T> {
  const reader = stream.getReader()
  const onAbort = () => void reader.cancel(signal.reason).catch(() => undefined)
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (signal.aborted) throw new NestorError('aborted', 'aborted')
      if (done) return
      yield value
    }
  } finally {
    signal.removeEventListener('abort', onAbort)
    reader.releaseLock()
  }
}

/** Reads V3 stream parts into the builder; an `error` part is thrown to be classified like any failure. */
export const parseAiSdkStream: StreamParser<LanguageModelV3StreamPart> = async (parts, builder, _signal, emit) => {
  emit(builder.start())
  const providerExecuted: ProviderExecutedPart[] = []
  const reasoning: (Record<string, unknown> | undefined)[] = []
  const remoteCalls = new Set<string>()
  for await (const part of parts) {
    switch (part.type) {
      case 'text-delta':
        if (part.delta !== '') emit(builder.text(part.delta))
        break
      case 'reasoning-start':
        reasoning.push(part.providerMetadata)
        break
      case 'reasoning-delta':
        emit(builder.thinking(part.delta))
        break
      case 'reasoning-end':
        if (part.providerMetadata) reasoning[reasoning.length - 1] = part.providerMetadata
        break
      case 'tool-input-start':
        if (part.providerExecuted) remoteCalls.add(part.id)
        else emit(builder.toolCallStart(part.id, part.id, part.toolName))
        break
      case 'tool-input-delta': {
        const out = builder.toolCallDelta(part.id, part.delta)
        if (out) emit(out)
        break
      }
      case 'tool-call': {
        if (part.providerExecuted || remoteCalls.has(part.toolCallId)) {
          providerExecuted.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          })
          break
        }
        const providerData = part.providerMetadata ? { [metadataKey]: part.providerMetadata } : undefined
        if (!builder.isOpen(part.toolCallId)) {
          emit(builder.toolCallStart(part.toolCallId, part.toolCallId, part.toolName, providerData))
          const delta = builder.toolCallDelta(part.toolCallId, part.input)
          if (delta) emit(delta)
        }
        // The final input is authoritative (it may differ from what was streamed).
        const parsed = parseArguments(part.input)
        const end = builder.toolCallEnd(part.toolCallId, parsed.invalid === undefined ? parsed.value : undefined)
        if (end) {
          if (providerData && end.type === 'toolcall_end')
            end.toolCall.providerData = { ...end.toolCall.providerData, ...providerData }
          emit(end)
        }
        break
      }
      case 'tool-result':
        providerExecuted.push({
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          result: part.result,
          ...(part.isError ? { isError: true } : {}),
        })
        break
      case 'error':
        throw part.error
      case 'finish': {
        builder.setUsage(toUsage(part.usage))
        keepData(builder, reasoning, providerExecuted)
        for (const out of builder.closeAll()) emit(out)
        emit(builder.done(toStopReason(part.finishReason)))
        return
      }
      default:
        // stream-start, response-metadata, text/tool-input boundaries, sources, files, raw chunks.
        break
    }
  }
  throw new NestorError('provider_error', 'stream ended without a finish part', { retryable: true })
}

function keepData(
  builder: AssistantBuilder,
  reasoning: (Record<string, unknown> | undefined)[],
  providerExecuted: ProviderExecutedPart[],
): void {
  const data: Record<string, unknown> = {}
  if (reasoning.some((m) => m !== undefined)) data.reasoning = reasoning
  if (providerExecuted.length > 0) data.providerExecuted = providerExecuted
  if (Object.keys(data).length > 0)
    builder.message.providerData = { ...builder.message.providerData, [metadataKey]: data }
}

/** V3 usage → Nestor's: `input` is the uncached part, cache reads and writes apart. */
export function toUsage(usage: LanguageModelV3Usage): Partial<Usage> {
  const cacheRead = usage.inputTokens.cacheRead ?? 0
  const cacheWrite = usage.inputTokens.cacheWrite ?? 0
  const input = usage.inputTokens.noCache ?? Math.max(0, (usage.inputTokens.total ?? 0) - cacheRead - cacheWrite)
  return { input, output: usage.outputTokens.total ?? 0, cacheRead, cacheWrite }
}

function toStopReason(reason: LanguageModelV3FinishReason | string): StopReason {
  const unified = typeof reason === 'string' ? reason : reason.unified
  if (unified === 'length') return 'length'
  if (unified === 'tool-calls') return 'toolUse'
  if (unified === 'error')
    throw new NestorError(
      'provider_error',
      `the model finished with an error${typeof reason === 'object' && reason.raw ? ` (${reason.raw})` : ''}`,
      { retryable: false },
    )
  return 'stop'
}
