import type Anthropic from '@anthropic-ai/sdk'
import type { Provider } from '@nestor/core'
import type { SameKeys } from '@nestor/core/integration-kit'
import { option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import {
  finalAfterContent,
  type RequestAttempt,
  retryOptionShape,
  retryingStreams,
  type RetryOptions,
} from '../shared/retrying-provider.js'
import { loggerOption, sdkLogging, type ProviderLogger } from '../shared/sdk-logger.js'
import { lazySdkClient } from '../shared/sdk-client.js'
import { missingApiKey } from '../shared/failures.js'
import { resolveCacheControl } from './cache-control.js'
import type { AnthropicCacheControl } from './cache-control-option.js'
import { anthropicCapabilities } from './capabilities.js'
import { catalogued } from '../catalogue/adapter-info.js'
import { classifyAnthropicError } from './errors.js'
import { buildAnthropicParams } from './request.js'
import { loadAnthropic } from './sdk.js'
import type { AnthropicClient } from '../shared/peer-shapes.js'
import { parseAnthropicStream } from './stream.js'
import { anthropicStreamEvents } from './stream-data.js'
import { envVar } from '../shared/env.js'

export type AnthropicOptions = RetryOptions & {
  /** Default: `process.env.ANTHROPIC_API_KEY`. Ignored when `client` is given. */
  apiKey?: string
  baseURL?: string
  /** A ready SDK client (proxies, custom fetch). Its own retries are bypassed per request. */
  client?: AnthropicClient
  /** `max_tokens` when the request gives none. Default 4096. */
  maxTokens?: number
  /** Extended thinking for every request (a request's `options.thinking` wins; `false` turns it off). */
  thinking?: { budgetTokens: number }
  /** Provider name on messages and errors. Default 'anthropic'. */
  name?: string
  /** The SDK's diagnostics, redacted. Default: none, the SDK prints nothing. Not applied to an injected `client`. */
  logger?: ProviderLogger
  /** Prompt-cache breakpoints on the system prompt, the tools and the last messages (see docs/providers.md). */
  cacheControl?: AnthropicCacheControl
}

const anthropicShape = () => ({
  apiKey: option.nonEmptyString().optional(),
  baseURL: option.nonEmptyString().optional(),
  client: option
    .custom<AnthropicClient>('an Anthropic SDK client', (v) => typeof v === 'object' && v !== null)
    .optional(),
  ...retryOptionShape(),
  maxTokens: option.positiveInt().optional(),
  thinking: option.object({ budgetTokens: option.positiveInt() }).optional(),
  name: option.nonEmptyString().optional(),
  logger: loggerOption(),
  // Its fields are checked by resolveCacheControl, whose messages name the field that is wrong.
  cacheControl: option
    .custom<AnthropicCacheControl>(
      'true, false or { system, tools, lastMessages, ttl }',
      (v) => typeof v === 'boolean' || (typeof v === 'object' && v !== null),
    )
    .optional(),
})
const anthropicSchema = strictOptions(anthropicShape)
const anthropicKeysMatch: SameKeys<ReturnType<typeof anthropicShape>, AnthropicOptions> = true
void anthropicKeysMatch

/**
 * The Anthropic Messages API over the official SDK's RAW event stream (`messages.create({ stream:
 * true })`), not its aggregating helpers: the helpers hide the events a tool call is built from and
 * return partially parsed input for truncated calls. The SDK sends the request; its raw events are
 * read from the body by our linear SSE reader (stream-data.ts). SDK retries are off (`maxRetries: 0`
 * on every request), so each attempt is one HTTP request and every retry is one Nestor `retry` event.
 */
export function anthropic(options: AnthropicOptions = {}): Provider {
  parseOptions(anthropicSchema, options)
  const name = options.name ?? 'anthropic'
  const apiKey = options.apiKey ?? envVar('ANTHROPIC_API_KEY')
  const cacheControl = resolveCacheControl(options.cacheControl)
  const defaults = {
    maxTokens: options.maxTokens ?? 4096,
    ...(options.thinking ? { thinking: options.thinking } : {}),
    ...(cacheControl ? { cacheControl } : {}),
  }
  const secrets = (): string[] => {
    const keys = [apiKey, options.client?.apiKey].filter((k): k is string => typeof k === 'string' && k !== '')
    return [...new Set(keys)]
  }
  const logging = sdkLogging(name, options.logger, secrets)
  const logError = (message: string) => logging.logger.error(message)
  const getClient = lazySdkClient({
    provider: name,
    load: () => loadAnthropic(name),
    // The option is typed structurally (shared/peer-shapes.ts); its value is the SDK's client.
    injected: options.client as Anthropic | undefined,
    apiKey,
    missingKey: () => missingApiKey(name, `${name}: no API key (pass apiKey or set ANTHROPIC_API_KEY)`),
    create: (sdk, key): Anthropic =>
      new sdk.default({
        apiKey: key,
        maxRetries: 0,
        ...(options.baseURL ? { baseURL: options.baseURL } : {}),
        ...logging,
      }),
  })

  const attempt: RequestAttempt = async (request, builder, signal, emit) => {
    const params = buildAnthropicParams(request, defaults, name)
    const client = await getClient()
    const response = await client.messages.create(params, { signal, maxRetries: 0 }).asResponse()
    await parseAnthropicStream(anthropicStreamEvents(response, signal, logError), builder, signal, emit)
  }

  return {
    name,
    ...retryingStreams(
      { ...options, name, secrets },
      finalAfterContent(attempt, (error) => classifyAnthropicError(error, name)),
    ),
    // The reply cap it sends when a request gives none (a budget's estimate counts on it).
    ...catalogued('anthropic', anthropicCapabilities, defaults.maxTokens),
    secrets,
  }
}
