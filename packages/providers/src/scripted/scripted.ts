import type { Provider, StopReason, TextContent, ThinkingContent, Usage } from '@nestor/core'
import type { ModelEvent, ModelRequest, SameKeys } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { option, parseOptions, sleep, strictOptions } from '@nestor/core/integration-kit'
import { AssistantBuilder } from '../shared/assistant-builder.js'
import { offlineProvider } from '../replay/offline.js'

export type ScriptedToolCall = {
  type: 'toolCall'
  id?: string
  name: string
  arguments: Record<string, unknown> | string
}
/** One assistant turn: plain text, a message body, or a provider failure. */
export type ScriptedTurn =
  | string
  | { content: (TextContent | ThinkingContent | ScriptedToolCall)[]; stopReason?: StopReason; usage?: Partial<Usage> }
  | { error: string; status?: number; retryable?: boolean }

export type ScriptedOptions = {
  name?: string
  /** Wait this long before each delta, so tests can abort mid-stream. */
  delayMs?: number
  /** Characters per text/argument delta. Default 8. */
  chunkSize?: number
}

export type ScriptedProvider = Provider & {
  /** Every request the loop sent, in order. */
  readonly requests: ModelRequest[]
  /** Marked offline: the conformance harness runs it without NESTOR_LIVE_TESTS. */
  readonly [offlineProvider]: true
}

const scriptedShape = () => ({
  name: option.nonEmptyString().optional(),
  delayMs: option.nonNegative().optional(),
  chunkSize: option.positiveInt().optional(),
})
const scriptedSchema = strictOptions(scriptedShape)
const scriptedKeysMatch: SameKeys<ReturnType<typeof scriptedShape>, ScriptedOptions> = true
void scriptedKeysMatch

/**
 * A deterministic provider for tests and offline demos: plays `turns` in order, or asks a function
 * of the request. It streams through the same builder as the real adapters, so event shapes match.
 */
export function scripted(
  turns: ScriptedTurn[] | ((request: ModelRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>),
  options: ScriptedOptions = {},
): ScriptedProvider {
  if (typeof turns !== 'function' && !Array.isArray(turns))
    throw new NestorError('invalid_options', 'invalid turns: expected an array of turns or a function of the request')
  parseOptions(scriptedSchema, options)
  const name = options.name ?? 'scripted'
  const chunk = Math.max(1, options.chunkSize ?? 8)
  const requests: ModelRequest[] = []
  return {
    name,
    requests,
    [offlineProvider]: true,
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelEvent> {
      const index = requests.push(structuredClone(request)) - 1
      const builder = new AssistantBuilder(name, request.model)
      yield builder.start()
      const aborted = () => builder.fail(new NestorError('aborted', 'aborted'), 'aborted')
      const pause = async () => {
        if (options.delayMs) await sleep(options.delayMs, signal)
        return signal?.aborted ?? false
      }
      let turn: ScriptedTurn | undefined
      try {
        turn = typeof turns === 'function' ? await turns(request, index) : turns[index]
      } catch (error) {
        turn = { error: error instanceof Error ? error.message : String(error) }
      }
      if (turn === undefined) turn = { error: `scripted provider has no turn ${index + 1}` }
      if (typeof turn === 'string') turn = { content: [{ type: 'text', text: turn }] }
      if ('error' in turn) {
        const extra: { provider: string; status?: number; retryable: boolean } = {
          provider: name,
          retryable: turn.retryable ?? false,
        }
        if (turn.status !== undefined) extra.status = turn.status
        yield builder.fail(new NestorError('provider_error', turn.error, extra))
        return
      }
      for (const [i, block] of turn.content.entries()) {
        if (block.type === 'text') {
          for (const piece of pieces(block.text, chunk)) {
            if (await pause()) return yield aborted()
            yield builder.text(piece)
          }
        } else if (block.type === 'thinking') {
          for (const piece of pieces(block.thinking, chunk)) {
            if (await pause()) return yield aborted()
            yield builder.thinking(piece)
          }
          if (block.signature) builder.thinkingSignature(block.signature)
        } else {
          if (await pause()) return yield aborted()
          yield builder.toolCallStart(i, block.id, block.name)
          const json = typeof block.arguments === 'string' ? block.arguments : JSON.stringify(block.arguments)
          for (const piece of pieces(json, chunk)) {
            if (await pause()) return yield aborted()
            const event = builder.toolCallDelta(i, piece)
            if (event) yield event
          }
          if (turn.stopReason !== 'length') {
            const end = builder.toolCallEnd(i)
            if (end) yield end
          }
        }
      }
      if (await pause()) return yield aborted()
      builder.setUsage({ input: 10, output: 5, ...turn.usage })
      yield builder.done(turn.stopReason ?? 'stop')
    },
  }
}

function* pieces(text: string, size: number): Generator<string> {
  if (text.length === 0) return
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size)
}
