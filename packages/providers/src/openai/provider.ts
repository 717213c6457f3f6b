import type { Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { parseOptions } from '@nestor/core/integration-kit'
import type OpenAI from 'openai'
import type { ChatCompletionChunk } from 'openai/resources/chat/completions'
import type { ResponseStreamEvent } from 'openai/resources/responses/responses'
import type { AssistantBuilder } from '../shared/assistant-builder.js'
import { retryingStreams, type AttemptPlan } from '../shared/retrying-provider.js'
import { sdkLogging } from '../shared/sdk-logger.js'
import { lazySdkClient } from '../shared/sdk-client.js'
import { missingApiKey } from '../shared/failures.js'
import { openAICapabilities } from './capabilities.js'
import { catalogued } from '../catalogue/adapter-info.js'
import { toChatRequest } from './chat-request.js'
import { parseChatStream } from './chat-stream.js'
import { classifyOpenAIError } from './errors.js'
import { openAIOptionsSchema, type OpenAIProviderOptions } from './options.js'
import { toResponsesRequest } from './responses-request.js'
import { parseResponsesStream } from './responses-stream.js'
import { openAIStreamData } from './stream-data.js'
import { loadOpenAI, NO_KEY } from './sdk.js'
import { dropOptionalNulls } from './strict-schema.js'
import { envVar } from '../shared/env.js'

export type OpenAIProvider = Provider & { readonly api: 'chat' | 'responses' }

/**
 * OpenAI through the official SDK: Chat Completions by default, the Responses API with
 * `api: 'responses'`. The SDK's own retries are off; each retry is Nestor's, visible as a `retry`
 * event. The stream never throws: it ends with one `done` or `error`.
 */
export function openai(options: OpenAIProviderOptions = {}): OpenAIProvider {
  parseOptions(openAIOptionsSchema, options)
  const name = options.name ?? 'openai'
  const api = options.api ?? 'chat'
  const strict = options.strict ?? false
  const apiKey = options.client ? options.client.apiKey : (options.apiKey ?? envVar('OPENAI_API_KEY'))
  const secrets = (): string[] => (apiKey ? [apiKey] : [])
  const logging = sdkLogging(name, options.logger, secrets)
  const logError = (message: string) => logging.logger.error(message)
  const getClient = lazySdkClient({
    provider: name,
    load: () => loadOpenAI(name),
    // The option is typed structurally (shared/peer-shapes.ts); its value is the SDK's client.
    injected: options.client as OpenAI | undefined,
    apiKey: apiKey ?? undefined,
    missingKey: () => missingApiKey(name, 'OpenAI API key missing: pass apiKey or set OPENAI_API_KEY'),
    // A server of your own (a local model, a proxy) may take no key: none is sent to it.
    keyless: options.baseURL !== undefined,
    create: (OpenAISdk, key): OpenAI =>
      new OpenAISdk({
        // The SDK refuses to start without a key; this one never goes on the wire (no header below).
        apiKey: key || 'no-key',
        baseURL: options.baseURL,
        maxRetries: 0,
        ...(key === '' && { defaultHeaders: { Authorization: null } }),
        // The SDK refuses pages so that no key of the app's ships in one; without a key nothing is at stake.
        ...((key === '' || key === NO_KEY) && { dangerouslyAllowBrowser: true }),
        ...logging,
      }),
  })

  return {
    name,
    api,
    secrets,
    ...catalogued(catalogueKind(options), openAICapabilities),
    ...retryingStreams({ ...options, name, secrets }, (request: ModelRequest): AttemptPlan => {
      const schemas = strict ? new Map(request.tools.map((tool) => [tool.name, tool.parameters])) : undefined
      const attempt = async (
        builder: AssistantBuilder,
        attemptSignal: AbortSignal,
        push: (event: ModelEvent) => void,
      ): Promise<void> => {
        // Strict mode sends `null` for optional properties; the tools expect them absent.
        const emit = schemas
          ? (event: ModelEvent) => {
              if (event.type === 'toolcall_end') {
                const schema = schemas.get(event.toolCall.name)
                if (schema) dropOptionalNulls(event.toolCall.arguments, schema)
              }
              push(event)
            }
          : push
        const sdk = await getClient()
        if (api === 'responses') {
          const response = await sdk.responses
            .create(toResponsesRequest(request, strict, name), { signal: attemptSignal, maxRetries: 0 })
            .asResponse()
          const events = openAIStreamData<ResponseStreamEvent>(response, attemptSignal, logError)
          await parseResponsesStream(events, builder, attemptSignal, emit)
        } else {
          const response = await sdk.chat.completions
            .create(toChatRequest(request, strict), { signal: attemptSignal, maxRetries: 0 })
            .asResponse()
          const chunks = openAIStreamData<ChatCompletionChunk>(response, attemptSignal, logError)
          await parseChatStream(chunks, builder, attemptSignal, emit)
        }
      }
      return { attempt, classify: (error) => classifyOpenAIError(error, name) }
    }),
  }
}

/**
 * Which catalogue prices this adapter's models: OpenAI's, unless it talks to another server, which
 * is priced by the name the app gave it (`groq`, `deepseek`…) or not at all (a local server).
 */
function catalogueKind(options: OpenAIProviderOptions): string | undefined {
  if (options.baseURL === undefined || /^https:\/\/api\.openai\.com(\/|$)/.test(options.baseURL))
    return options.name ?? 'openai'
  return options.name
}
