import type Anthropic from '@anthropic-ai/sdk'
import type { Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest, SameKeys } from '@nestor/core/provider-kit'
import { NestorError } from '@nestor/core'
import { option, parseOptions } from '@nestor/core/provider-kit'
import { z } from 'zod/v4'
import type { AssistantBuilder } from '../shared/assistant-builder.js'
import { finalAfterContent, retryingStreams } from '../shared/retrying-provider.js'
import { sdkLogging, type ProviderLogger } from '../shared/sdk-logger.js'
import { resolveCacheControl, type AnthropicCacheControl } from './cache-control.js'
import { anthropicCapabilities } from './capabilities.js'
import { classifyAnthropicError } from './errors.js'
import { buildAnthropicParams } from './request.js'
import { loadAnthropic } from './sdk.js'
import { parseAnthropicStream } from './stream.js'

export type AnthropicOptions = {
  /** Default: `process.env.ANTHROPIC_API_KEY`. Ignored when `client` is given. */
  apiKey?: string
  baseURL?: string
  /** A ready SDK client (proxies, custom fetch). Its own retries are bypassed per request. */
  client?: Anthropic
  /** Nestor's retries of a failure before any content. Default 2; `request.maxRetries` wins. */
  maxRetries?: number
  /** Cap on a server-requested `retry-after`. Default 30 s. */
  maxRetryDelayMs?: number
  /** A stream silent this long fails as retryable; `request.streamIdleTimeoutMs` wins. */
  streamIdleTimeoutMs?: number
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

const anthropicShape = {
  apiKey: option.nonEmptyString().optional(),
  baseURL: option.nonEmptyString().optional(),
  client: option.custom<Anthropic>('an Anthropic SDK client', (v) => typeof v === 'object' && v !== null).optional(),
  maxRetries: option.nonNegativeInt().optional(),
  maxRetryDelayMs: option.nonNegative().optional(),
  streamIdleTimeoutMs: option.nonNegative().optional(),
  maxTokens: option.positiveInt().optional(),
  thinking: z.strictObject({ budgetTokens: option.positiveInt() }).optional(),
  name: option.nonEmptyString().optional(),
  logger: option
    .custom<ProviderLogger>(
      'a logger { log(entry) }',
      (v) => typeof v === 'object' && v !== null && typeof (v as { log?: unknown }).log === 'function',
    )
    .optional(),
  // Its fields are checked by resolveCacheControl, whose messages name the field that is wrong.
  cacheControl: option
    .custom<AnthropicCacheControl>(
      'true, false or { system, tools, lastMessages, ttl }',
      (v) => typeof v === 'boolean' || (typeof v === 'object' && v !== null),
    )
    .optional(),
}
const anthropicSchema = z.strictObject(anthropicShape)
const anthropicKeysMatch: SameKeys<typeof anthropicShape, AnthropicOptions> = true
void anthropicKeysMatch

/**
 * The Anthropic Messages API over the official SDK's RAW event stream (`messages.create({ stream:
 * true })`), not its aggregating helpers: the helpers hide the events a tool call is built from and
 * return partially parsed input for truncated calls. SDK retries are off (`maxRetries: 0` on every
 * request), so each attempt is one HTTP request and every retry is one Nestor `retry` event.
 */
export function anthropic(options: AnthropicOptions = {}): Provider {
  parseOptions(anthropicSchema, options)
  const name = options.name ?? 'anthropic'
  const apiKey = options.apiKey ?? process.env.ANTHROPIC_API_KEY
  const cacheControl = resolveCacheControl(options.cacheControl)
  const defaults = {
    maxTokens: options.maxTokens ?? 4096,
    ...(options.thinking ? { thinking: options.thinking } : {}),
    ...(cacheControl ? { cacheControl } : {}),
  }
  let client = options.client
  // Built on first use, so a missing key is an `error` event of the first call, not a throw here.
  const getClient = async (): Promise<Anthropic> => {
    // The SDK is loaded even for an injected client: classifying its errors needs its classes.
    const sdk = await loadAnthropic(name)
    if (client) return client
    if (!apiKey) {
      throw new NestorError('invalid_options', `${name}: no API key (pass apiKey or set ANTHROPIC_API_KEY)`, {
        provider: name,
        retryable: false,
      })
    }
    client = new sdk.default({
      apiKey,
      maxRetries: 0,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      ...sdkLogging(name, options.logger, secrets),
    })
    return client
  }
  const secrets = (): string[] => {
    const keys = [apiKey, options.client?.apiKey].filter((k): k is string => typeof k === 'string' && k !== '')
    return [...new Set(keys)]
  }

  return {
    name,
    ...retryingStreams({ ...options, name, secrets }, (request: ModelRequest) =>
      finalAfterContent(
        (builder, signal, emit) => attempt(request, builder, signal, emit),
        (error) => classifyAnthropicError(error, name),
      ),
    ),
    capabilities: async (model: string) => anthropicCapabilities(model),
    secrets,
  }

  async function attempt(
    request: ModelRequest,
    builder: AssistantBuilder,
    signal: AbortSignal,
    emit: (event: ModelEvent) => void,
  ): Promise<void> {
    const params = buildAnthropicParams(request, defaults, name)
    const events = await (await getClient()).messages.create(params, { signal, maxRetries: 0 })
    await parseAnthropicStream(events, builder, signal, emit)
  }
}
