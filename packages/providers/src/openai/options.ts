import { option, strictOptions, type SameKeys } from '@nestor/core/integration-kit'
import type { OpenAIClient, OpenAIReasoningEffort } from '../shared/peer-shapes.js'
import { retryOptionShape, type RetryOptions } from '../shared/retrying-provider.js'
import { loggerOption, type ProviderLogger } from '../shared/sdk-logger.js'

export type OpenAIProviderOptions = RetryOptions & {
  /** Default `process.env.OPENAI_API_KEY`. Never appears in events or errors. */
  apiKey?: string
  /** Default the SDK's (`https://api.openai.com/v1`). */
  baseURL?: string
  /** An SDK instance to use instead of building one. Its own retries should be off (`maxRetries: 0`). */
  client?: OpenAIClient
  /** Default 'chat' (Chat Completions); 'responses' uses the Responses API. */
  api?: 'chat' | 'responses'
  /** Send tools in strict mode (schemas rewritten to OpenAI's strict subset). Default false. */
  strict?: boolean
  /** `provider` on produced messages. Default 'openai'. */
  name?: string
  /** The SDK's diagnostics, redacted. Default: none, the SDK prints nothing. Not applied to an injected `client`. */
  logger?: ProviderLogger
}

/** The `ModelRequest.options` keys this provider maps. `openai` is merged into the body as is. */
export type OpenAIRequestOptions = {
  maxTokens?: number
  temperature?: number
  reasoningEffort?: OpenAIReasoningEffort
  /** Raw request fields, for anything not mapped above. */
  openai?: Record<string, unknown>
}

const openAIShape = () => ({
  apiKey: option.nonEmptyString().optional(),
  baseURL: option.nonEmptyString().optional(),
  client: option.custom<OpenAIClient>('an OpenAI SDK client', (v) => typeof v === 'object' && v !== null).optional(),
  api: option.oneOf(['chat', 'responses']).optional(),
  strict: option.boolean().optional(),
  ...retryOptionShape(),
  name: option.nonEmptyString().optional(),
  logger: loggerOption(),
})
/** `openai()`'s options as a strict schema: an unknown key or a bad value fails at the factory. */
export const openAIOptionsSchema = strictOptions(openAIShape)
const openAIKeysMatch: SameKeys<ReturnType<typeof openAIShape>, OpenAIProviderOptions> = true
void openAIKeysMatch
