import type { Provider } from '@nestor/core'
import type { Capabilities, ModelEvent, ModelInfo, ModelRequest, SameKeys } from '@nestor/core/integration-kit'
import { modelInfo } from '../catalogue/model-info.js'
import { invalidOption, option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import type { NestorError } from '@nestor/core'
import { openai } from '../openai/provider.js'
import { NO_KEY } from '../openai/sdk.js'
import { loggerOption, type ProviderLogger } from '../shared/sdk-logger.js'
import { discover, serverRoot, type Discovered } from './discovery.js'
import { activeTools, toTextProtocolRequest } from './text-protocol-request.js'
import { AssistantBuilder } from '../shared/assistant-builder.js'
import { parsedEvents } from '../shared/stream-parser.js'
import { textProtocolParser } from './text-protocol-stream.js'
import { withOutputInstructions } from '../shared/output-instructions.js'

export type ToolProtocol = 'auto' | 'native' | 'text'

export type OpenAICompatibleOptions = {
  /** The server's OpenAI-compatible root, e.g. `http://localhost:11434/v1` (Ollama), `http://localhost:8000/v1` (vLLM), `http://localhost:1234/v1` (LM Studio). */
  baseURL: string
  /** Sent as a bearer token when given. Never falls back to OPENAI_API_KEY: a local server must not receive it. */
  apiKey?: string
  /** Used when a request names no model (`model: ''`). */
  model?: string
  /**
   * native: tools go in the request's `tools` field. text: the runtime-owned text protocol.
   * auto (default): native when the server reports tool capability for the model (Ollama
   * `/api/show`), else text — also when the server has no discovery endpoint.
   */
  toolProtocol?: ToolProtocol
  /** `provider` on produced messages. Default 'openai-compatible'. */
  name?: string
  maxRetries?: number
  streamIdleTimeoutMs?: number
  /** The SDK's diagnostics, redacted (see `openai({ logger })`). Default: none. */
  logger?: ProviderLogger
  /**
   * Typed output. native: `response_format` json_schema. instructions: the schema in the system
   * prompt (validated all the same). auto (default): native when discovery answers (Ollama, whose
   * OpenAI endpoint takes `response_format`), else instructions.
   */
  structuredOutput?: 'auto' | 'native' | 'instructions'
}

export type OpenAICompatibleProvider = Provider & {
  readonly baseURL: string
  /** Which protocol a model gets ('auto' resolved; discovery cached per model). */
  protocolFor(model: string): Promise<'native' | 'text'>
}

const compatibleShape = () => ({
  baseURL: option.nonEmptyString('a non-empty URL'),
  apiKey: option.nonEmptyString().optional(),
  model: option.string().optional(),
  toolProtocol: option.oneOf(['auto', 'native', 'text']).optional(),
  name: option.nonEmptyString().optional(),
  maxRetries: option.nonNegativeInt().optional(),
  streamIdleTimeoutMs: option.nonNegative().optional(),
  logger: loggerOption(),
  structuredOutput: option.oneOf(['auto', 'native', 'instructions']).optional(),
})
const compatibleSchema = strictOptions(compatibleShape)
const compatibleKeysMatch: SameKeys<ReturnType<typeof compatibleShape>, OpenAICompatibleOptions> = true
void compatibleKeysMatch

/**
 * Local and self-hosted models over the OpenAI Chat Completions wire (Ollama, vLLM, LM Studio),
 * built on `openai()`. Models without native tool calling get the text tool protocol: tools are
 * described in the system prompt and ```tool_call blocks in the reply are parsed into ToolCalls.
 */
export function openaiCompatible(options: OpenAICompatibleOptions): OpenAICompatibleProvider {
  parseOptions(compatibleSchema, options)
  const name = options.name ?? 'openai-compatible'
  const mode = options.toolProtocol ?? 'auto'
  const inner = openai({
    name,
    baseURL: options.baseURL,
    apiKey: options.apiKey ?? NO_KEY,
    maxRetries: options.maxRetries,
    streamIdleTimeoutMs: options.streamIdleTimeoutMs,
    ...(options.logger ? { logger: options.logger } : {}),
  })
  const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}
  const root = serverRoot(options.baseURL)
  const cache = new Map<string, Promise<Discovered>>()
  const capabilities = (model: string): Promise<Discovered> => {
    let found = cache.get(model)
    if (!found) {
      found = discover(root, model, headers).catch((): Discovered => {
        // Unreachable server: not cached, so the next call asks again.
        cache.delete(model)
        return { tools: false, thinking: false, reported: false }
      })
      cache.set(model, found)
    }
    return found
  }
  const discovered = async (model: string): Promise<Capabilities> => {
    const { reported: _reported, ...caps } = await capabilities(model)
    return mode === 'native' ? { ...caps, tools: true } : caps
  }
  const protocolFor = async (model: string): Promise<'native' | 'text'> => {
    if (mode !== 'auto') return mode
    return (await capabilities(model)).tools ? 'native' : 'text'
  }

  const nativeOutputFor = async (model: string): Promise<boolean> => {
    const choice = options.structuredOutput ?? 'auto'
    if (choice !== 'auto') return choice === 'native'
    return (await capabilities(model)).reported
  }

  /** Whether the model can think: false or true as discovery reports it, undefined without discovery. */
  const thinkingFor = async (model: string): Promise<boolean | undefined> => {
    const found = await capabilities(model)
    return found.reported ? found.thinking : undefined
  }

  return {
    name,
    baseURL: options.baseURL,
    protocolFor,
    secrets: () => (options.apiKey ? [options.apiKey] : []),
    capabilities: discovered,
    // Priced by the name the app gave the server (`groq`, `deepseek`…); a local server has no price.
    modelInfo: async (model: string): Promise<ModelInfo> => {
      // Pricing never asks the server: only what discovery found for a request already is used.
      const caps: Capabilities = cache.has(model)
        ? await discovered(model)
        : { tools: mode !== 'text', thinking: false }
      const entry = options.name === undefined ? undefined : await modelInfo(options.name, model)
      return {
        ...entry,
        ...(caps.contextWindow !== undefined && { contextWindow: caps.contextWindow }),
        capabilities: caps,
      }
    },
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelEvent> {
      const model = request.model || options.model || ''
      let resolved = { ...request, model }
      const protocol = resolved.tools.length > 0 || hasToolHistory(resolved) ? await protocolFor(model) : 'native'
      // A JSON-only response format would forbid the text protocol's tool blocks.
      const textTools = protocol === 'text' && activeTools(resolved).length > 0
      if (resolved.output && (textTools || !(await nativeOutputFor(model)))) resolved = withOutputInstructions(resolved)
      if (resolved.think !== undefined) {
        const thinking = await thinkingFor(model)
        if (resolved.think && thinking === false) return yield* refused(name, model, thinkRefusal(model))
        resolved = withThink(resolved, thinking)
      }
      if (protocol === 'native') return yield* inner.stream(resolved, signal)
      const { request: textRequest, instructions } = toTextProtocolRequest(resolved)
      const events = inner.stream(textRequest, signal)
      const parser = textProtocolParser(activeTools(resolved).length > 0)
      const builder = new AssistantBuilder(name, model)
      for await (const event of parsedEvents(parser, events, builder, signal ?? new AbortController().signal)) {
        // The injected instructions travel on the start event, so message_start can show them.
        if (event.type === 'start' && instructions)
          yield { ...event, injectedPrompt: { kind: 'text-tool-protocol', text: instructions } }
        else yield event
      }
    },
  }
}

const hasToolHistory = (request: ModelRequest): boolean => request.messages.some((m) => m.role === 'toolResult')

/**
 * `think` on the wire: Ollama's OpenAI endpoint reads it as `reasoning_effort` ('none' is think
 * off; a level is think on). A caller's own `reasoningEffort` wins; a model discovery says cannot
 * think gets nothing to turn off.
 */
function withThink(request: ModelRequest, thinking: boolean | undefined): ModelRequest {
  if (request.options?.reasoningEffort !== undefined || (!request.think && thinking === false)) return request
  return { ...request, options: { ...request.options, reasoningEffort: request.think ? 'medium' : 'none' } }
}

const thinkRefusal = (model: string) =>
  invalidOption('think', `a model that can think (discovery says ${model} cannot: no "thinking" capability)`, true)

/** A call refused before any request: a start and an error event, as every stream ends. */
async function* refused(name: string, model: string, error: NestorError): AsyncGenerator<ModelEvent> {
  const builder = new AssistantBuilder(name, model)
  yield builder.start()
  yield builder.fail(error, 'error')
}
