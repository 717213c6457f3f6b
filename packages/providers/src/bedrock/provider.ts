import type { BedrockRuntimeClient, BedrockRuntimeClientConfig } from '@aws-sdk/client-bedrock-runtime'
import type { Provider } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { importPeer } from '../shared/import-peer.js'
import type { BedrockClient, BedrockCredentials } from '../shared/peer-shapes.js'
import {
  finalAfterContent,
  type RequestAttempt,
  retryingStreams,
  type RetryOptions,
} from '../shared/retrying-provider.js'
import { bedrockCapabilities } from './capabilities.js'
import { catalogued } from '../catalogue/adapter-info.js'
import { classifyBedrockError } from './errors.js'
import { buildConverseInput } from './request.js'
import { parseConverseStream } from './stream.js'
import { envVar } from '../shared/env.js'

type Sdk = typeof import('@aws-sdk/client-bedrock-runtime')

export type BedrockOptions = RetryOptions & {
  /** Default: `AWS_REGION`, then `AWS_DEFAULT_REGION`, then the SDK's own resolution. */
  region?: string
  /** Static credentials or a provider; default: the AWS SDK's default chain (env, profile, SSO, IMDS…). */
  credentials?: BedrockCredentials
  /** A custom endpoint (VPC endpoint, a local test server). */
  endpoint?: string
  /** A ready SDK client. Nestor still sends each attempt once (its own retries, not the SDK's). */
  client?: BedrockClient
  /** `inferenceConfig.maxTokens` when the request gives none. Default: the model's own. */
  maxTokens?: number
  /** Claude extended thinking for every request (a request's `options.thinking` wins; `false` turns it off). */
  thinking?: { budgetTokens: number }
  /** Provider name on messages and errors. Default 'bedrock'. */
  name?: string
}

let sdk: Promise<Sdk> | undefined
/** The AWS SDK is an optional peer: loaded on the first request, never when the package is imported. */
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= importPeer(() => import('@aws-sdk/client-bedrock-runtime'), '@aws-sdk/client-bedrock-runtime', 'bedrock'))

/**
 * AWS Bedrock through the Converse stream API (`ConverseStreamCommand`), one model-neutral shape for
 * every Bedrock model family. The SDK's retries are off (`maxAttempts: 1`) so every attempt is one
 * request and every retry is one Nestor `retry` event; throttling, 5xx and in-stream model errors
 * are retried before any content.
 */
export function bedrock(options: BedrockOptions = {}): Provider {
  const name = options.name ?? 'bedrock'
  const defaults = {
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.thinking ? { thinking: options.thinking } : {}),
  }
  // The option is typed structurally (shared/peer-shapes.ts); its value is the SDK's client.
  const injected = options.client as BedrockRuntimeClient | undefined
  let client: Promise<BedrockRuntimeClient> | undefined = injected ? Promise.resolve(injected) : undefined
  const getClient = (): Promise<BedrockRuntimeClient> =>
    (client ??= loadSdk().then((aws) => {
      const region = options.region ?? envVar('AWS_REGION') ?? envVar('AWS_DEFAULT_REGION')
      const config: BedrockRuntimeClientConfig = { maxAttempts: 1 }
      if (region) config.region = region
      if (options.credentials) config.credentials = options.credentials
      if (options.endpoint) config.endpoint = options.endpoint
      return new aws.BedrockRuntimeClient(config)
    }))
  const secrets = (): string[] => {
    const creds = options.credentials
    if (!creds || typeof creds === 'function') return []
    return [creds.secretAccessKey, creds.sessionToken].filter((s): s is string => typeof s === 'string' && s !== '')
  }

  const attempt: RequestAttempt = async (request, builder, signal, emit) => {
    const input = buildConverseInput(request, defaults, name)
    const [aws, bedrockClient] = await Promise.all([loadSdk(), getClient()])
    const response = await bedrockClient.send(new aws.ConverseStreamCommand(input), { abortSignal: signal })
    if (!response.stream)
      throw new NestorError('provider_error', `${name}: response without a stream`, {
        provider: name,
        retryable: false,
      })
    await parseConverseStream(response.stream, builder, signal, emit)
  }

  return {
    name,
    ...retryingStreams(
      { ...options, name, secrets },
      finalAfterContent(attempt, (error) => classifyBedrockError(error, name)),
    ),
    ...catalogued('bedrock', bedrockCapabilities, options.maxTokens),
    secrets,
  }
}
