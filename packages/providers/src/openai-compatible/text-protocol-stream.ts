import type { ModelEvent } from '@nestor/core/integration-kit'
import type { StreamParser } from '../shared/stream-parser.js'
import { ToolBlockParser, decodeCall, type ParsedPiece } from './tool-block-parser.js'

/**
 * Turns the stream of a model answering in the text tool protocol into native-looking events:
 * text outside ```tool_call blocks streams as text, each block becomes one tool call (malformed
 * ones carry `invalidArguments`) and is removed from the text. Whitespace that only separated
 * text from blocks is dropped, so a reply of calls alone has no empty text part.
 */
export const textProtocolParser =
  (parse: boolean): StreamParser<ModelEvent> =>
  async (events, builder, _signal, emitEvent) => {
    const parser = new ToolBlockParser()
    let space = ''
    let calls = 0
    const emitPieces = (pieces: ParsedPiece[]): void => {
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
          if (content) emitEvent(builder.text(content))
          continue
        }
        space = ''
        const call = decodeCall(piece.body, piece.closed)
        const key = calls++
        emitEvent(builder.toolCallStart(key, undefined, call.name))
        const delta = builder.toolCallDelta(key, JSON.stringify(call.arguments))
        if (delta) emitEvent(delta)
        const end = builder.toolCallEnd(key)
        if (end?.type === 'toolcall_end' && call.invalid !== undefined) end.toolCall.invalidArguments = call.invalid
        if (end) emitEvent(end)
      }
    }
    for await (const event of events) {
      switch (event.type) {
        case 'start':
          emitEvent(builder.start())
          break
        case 'text_delta':
          if (parse) emitPieces(parser.push(event.delta))
          else emitEvent(builder.text(event.delta))
          break
        case 'thinking_delta':
          emitEvent(builder.thinking(event.delta))
          break
        case 'retry':
          emitEvent(event)
          break
        case 'done':
        case 'error': {
          if (parse) emitPieces(parser.end())
          builder.setUsage(event.message.usage)
          if (event.type === 'done') emitEvent(builder.done(event.message.stopReason))
          else emitEvent(builder.fail(event.error, event.message.stopReason === 'aborted' ? 'aborted' : 'error'))
          return
        }
        default:
          // Native call events cannot occur: the text protocol sends no tools.
          break
      }
    }
  }
