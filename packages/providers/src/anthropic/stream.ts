import type Anthropic from '@anthropic-ai/sdk'
import type { StopReason, Usage } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import type { AssistantBuilder } from '../shared/assistant-builder.js'
import type { StreamParser } from '../shared/stream-parser.js'

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking' }
  | { kind: 'tool'; id: string; json: string; initial: Record<string, unknown> }
  | { kind: 'other' }

/**
 * Anthropic stop reasons → Nestor. `refusal` is reported as a failure (see `readAnthropicStream`);
 * `max_tokens` and `model_context_window_exceeded` both mean the output was cut short; `pause_turn`
 * (server tools only) and any reason this version does not know end the turn normally.
 */
export function mapStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length'
    case 'tool_use':
      return 'toolUse'
    case 'refusal':
      return 'error'
    default:
      return 'stop'
  }
}

/**
 * Anthropic usage → Nestor. `message_start` carries the first counts and every `message_delta`
 * carries CUMULATIVE counts, so fields present are replaced, never added; absent or null fields
 * keep their previous value. `input_tokens` excludes cached tokens, which go to cacheRead/cacheWrite.
 */
export function mapUsage(usage: Partial<Record<string, unknown>> | null | undefined): Partial<Usage> {
  const out: Partial<Usage> = {}
  const num = (key: string): number | undefined =>
    typeof usage?.[key] === 'number' ? (usage[key] as number) : undefined
  const input = num('input_tokens')
  const output = num('output_tokens')
  const cacheRead = num('cache_read_input_tokens')
  const cacheWrite = num('cache_creation_input_tokens')
  if (input !== undefined) out.input = input
  if (output !== undefined) out.output = output
  if (cacheRead !== undefined) out.cacheRead = cacheRead
  if (cacheWrite !== undefined) out.cacheWrite = cacheWrite
  return out
}

/**
 * Turns the SDK's raw event stream into ModelEvents on `builder`. Ends with `done` after
 * `message_stop`; throws on anything else (an in-stream `event: error`, a malformed event, a stream
 * that stops early), leaving the partial message on the builder for the retry wrapper to report.
 *
 * Tool input arrives as `input_json_delta` fragments keyed by block index and is parsed only at
 * `content_block_stop`. A tool_use still open when the message stops for length was cut mid-input:
 * it stays in the message with its raw text in `invalidArguments` and no `toolcall_end`, so it can
 * never run even if the fragment happens to parse.
 */
export const parseAnthropicStream: StreamParser<Anthropic.RawMessageStreamEvent> = async (
  events,
  builder,
  _signal,
  emit,
) => {
  const provider = builder.message.provider
  const open = new Map<number, OpenBlock>()
  let stopReason: string | null | undefined
  for await (const event of events) {
    switch (event.type) {
      case 'message_start':
        if (event.message.id) builder.message.responseId = event.message.id
        builder.setUsage(mapUsage(event.message.usage as unknown as Record<string, unknown>))
        emit(builder.start())
        break
      case 'content_block_start': {
        const block = event.content_block
        if (block.type === 'text') {
          open.set(event.index, { kind: 'text' })
          if (block.text) emit(builder.text(block.text))
        } else if (block.type === 'thinking') {
          const start = builder.thinkingBlock(
            block.thinking ?? '',
            block.signature ? { signature: block.signature } : {},
          )
          open.set(event.index, { kind: 'thinking' })
          if (start) emit(start)
        } else if (block.type === 'redacted_thinking') {
          // Opaque encrypted reasoning: kept as a redacted ThinkingContent whose signature is the data.
          builder.thinkingBlock('', { signature: block.data, redacted: true })
          open.set(event.index, { kind: 'other' })
        } else if (block.type === 'tool_use') {
          const initial = isRecord(block.input) ? block.input : {}
          const start = builder.toolCallStart(event.index, block.id, block.name)
          if (start.type === 'toolcall_start') open.set(event.index, { kind: 'tool', id: start.id, json: '', initial })
          emit(start)
        } else {
          // Server tools and their results are not modelled by Nestor; their blocks are skipped.
          open.set(event.index, { kind: 'other' })
        }
        break
      }
      case 'content_block_delta': {
        const state = open.get(event.index)
        const delta = event.delta
        if (delta.type === 'text_delta') {
          if (state?.kind === 'text' && delta.text) emit(builder.text(delta.text))
        } else if (delta.type === 'thinking_delta') {
          // Blocks arrive one after another, so the open thinking block is the message's last one.
          if (state?.kind === 'thinking' && delta.thinking) emit(builder.thinking(delta.thinking))
        } else if (delta.type === 'signature_delta') {
          if (state?.kind === 'thinking') builder.thinkingSignature(delta.signature)
        } else if (delta.type === 'input_json_delta') {
          if (state?.kind === 'tool' && delta.partial_json) {
            state.json += delta.partial_json
            const out = builder.toolCallDelta(event.index, delta.partial_json)
            if (out) emit(out)
          }
        }
        break
      }
      case 'content_block_stop': {
        const state = open.get(event.index)
        open.delete(event.index)
        if (state?.kind === 'tool') {
          // A no-argument call streams `partial_json: ""` only: the input is {} (or what the start carried).
          const end = builder.toolCallEnd(event.index, state.json.trim() === '' ? state.initial : undefined)
          if (end) emit(end)
        }
        break
      }
      case 'message_delta':
        if (event.delta.stop_reason !== undefined && event.delta.stop_reason !== null)
          stopReason = event.delta.stop_reason
        builder.setUsage(mapUsage(event.usage as unknown as Record<string, unknown>))
        break
      case 'message_stop':
        for (const event of finish(builder, open, stopReason, provider)) emit(event)
        return
      default:
        break
    }
  }
  throw new NestorError('provider_error', `${provider} stream ended before message_stop`, { provider, retryable: true })
}

function* finish(
  builder: AssistantBuilder,
  open: Map<number, OpenBlock>,
  reason: string | null | undefined,
  provider: string,
): Generator<ModelEvent> {
  const stopReason = mapStopReason(reason)
  if (stopReason === 'error') {
    // A refusal is the model's answer, not a fault: its own code, the explanation kept as text.
    builder.message.refusal = builder.message.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    throw new NestorError('refusal', `${provider} declined to answer (stop_reason: ${reason})`, {
      provider,
      retryable: false,
    })
  }
  const truncated = new Map<string, string>()
  for (const [index, state] of open) {
    if (state.kind !== 'tool') continue
    if (stopReason === 'length') {
      truncated.set(state.id, state.json)
    } else {
      const end = builder.toolCallEnd(index, state.json.trim() === '' ? state.initial : undefined)
      if (end) yield end
    }
  }
  const done = builder.done(stopReason)
  // Cut-off input is never trusted, even when the prefix parses: empty arguments + raw text.
  for (const part of builder.message.content) {
    if (part.type !== 'toolCall' || !truncated.has(part.id)) continue
    part.arguments = {}
    part.invalidArguments = truncated.get(part.id) ?? ''
  }
  yield done
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
