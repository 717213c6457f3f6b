import type { ModelEvent } from '@nestor/core/provider-kit'
import { AssistantBuilder } from '../shared/assistant-builder.js'
import { ToolBlockParser, decodeCall, type ParsedPiece } from './tool-block-parser.js'

/**
 * Turns the stream of a model answering in the text tool protocol into native-looking events:
 * text outside ```tool_call blocks streams as text, each block becomes one tool call (malformed
 * ones carry `invalidArguments`) and is removed from the text. Whitespace that only separated
 * text from blocks is dropped, so a reply of calls alone has no empty text part.
 */
export async function* parseTextProtocol(
  events: AsyncIterable<ModelEvent>,
  provider: string,
  model: string,
  parse: boolean,
): AsyncGenerator<ModelEvent> {
  const builder = new AssistantBuilder(provider, model)
  const parser = new ToolBlockParser()
  let space = ''
  let calls = 0
  const emit = function* (pieces: ParsedPiece[]): Generator<ModelEvent> {
    for (const piece of pieces) {
      if (piece.kind === 'text') {
        const text = space + piece.text
        const trimmed = text.trimEnd()
        space = text.slice(trimmed.length)
        // Leading whitespace of the message, or right after a block, is layout, not content.
        const content =
          builder.message.content.length === 0 || builder.message.content.at(-1)?.type === 'toolCall'
            ? trimmed.trimStart()
            : trimmed
        if (content) yield builder.text(content)
        continue
      }
      space = ''
      const call = decodeCall(piece.body, piece.closed)
      const key = calls++
      yield builder.toolCallStart(key, undefined, call.name)
      const delta = builder.toolCallDelta(key, JSON.stringify(call.arguments))
      if (delta) yield delta
      const end = builder.toolCallEnd(key)
      if (end?.type === 'toolcall_end' && call.invalid !== undefined) end.toolCall.invalidArguments = call.invalid
      if (end) yield end
    }
  }
  for await (const event of events) {
    switch (event.type) {
      case 'start':
        yield builder.start()
        break
      case 'text_delta':
        if (parse) yield* emit(parser.push(event.delta))
        else yield builder.text(event.delta)
        break
      case 'thinking_delta':
        yield builder.thinking(event.delta)
        break
      case 'retry':
        yield event
        break
      case 'done':
      case 'error': {
        if (parse) yield* emit(parser.end())
        builder.setUsage(event.message.usage)
        if (event.type === 'done') {
          yield builder.done(event.message.stopReason)
        } else {
          builder.message.stopReason = event.message.stopReason
          if (event.message.errorMessage !== undefined) builder.message.errorMessage = event.message.errorMessage
          yield { type: 'error', message: builder.message, error: event.error }
        }
        return
      }
      default:
        // Native call events cannot occur: the text protocol sends no tools.
        break
    }
  }
}
