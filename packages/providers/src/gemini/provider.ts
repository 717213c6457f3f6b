import type { Provider } from '@nestor/core'
import type { ModelRequest, SameKeys } from '@nestor/core/integration-kit'
import { option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import { retryOptionShape, retryingStreams, type AttemptPlan, type RetryOptions } from '../shared/retrying-provider.js'
import { lazySdkClient } from '../shared/sdk-client.js'
import { missingApiKey } from '../shared/failures.js'
import { geminiCapabilities } from './capabilities.js'
import { catalogued } from '../catalogue/adapter-info.js'
import { toGeminiContents } from './convert-messages.js'
import { toGeminiParameters, toGeminiTools } from './convert-tools.js'
import { withOutputInstructions } from '../shared/output-instructions.js'
import { classifyGeminiError } from './errors.js'
import { toGenerationConfig } from './generation-config.js'
import { clientApiKey, createClient, loadGeminiSdk, streamGenerateContent } from './sdk.js'
import type { GeminiClient } from '../shared/peer-shapes.js'
import { parseGeminiStream } from './stream.js'
import { toGeminiToolConfig } from './tool-config.js'
import type { GeminiRequest } from './wire-types.js'
import { envVar } from '../shared/env.js'

export type GeminiOptions = RetryOptions & {
  /** Default: GEMINI_API_KEY, then GOOGLE_API_KEY. */
  apiKey?: string
  /** Scheme + host the SDK posts to (it appends /v1beta/models/…). Default: Google's endpoint. */
  baseURL?: string
  /** A `GoogleGenerativeAI` instance to use instead of one built from `apiKey`. */
  client?: GeminiClient
  /** The provider name on messages and errors. Default 'gemini'. */
  name?: string
}

const geminiShape = () => ({
  apiKey: option.nonEmptyString().optional(),
  baseURL: option.nonEmptyString().optional(),
  client: option
    .custom<GeminiClient>('a GoogleGenerativeAI instance', (v) => typeof v === 'object' && v !== null)
    .optional(),
  ...retryOptionShape(),
  name: option.nonEmptyString().optional(),
})
const geminiSchema = strictOptions(geminiShape)
const geminiKeysMatch: SameKeys<ReturnType<typeof geminiShape>, GeminiOptions> = true
void geminiKeysMatch

/** A Nestor provider for Google Gemini (generativelanguage v1beta) over @google/generative-ai. */
export function gemini(options: GeminiOptions = {}): Provider {
  parseOptions(geminiSchema, options)
  const name = options.name ?? 'gemini'
  const apiKey =
    options.apiKey ??
    (options.client ? clientApiKey(options.client) : undefined) ??
    envVar('GEMINI_API_KEY') ??
    envVar('GOOGLE_API_KEY') ??
    ''
  const getClient = lazySdkClient({
    provider: name,
    load: () => loadGeminiSdk(name),
    // The option is typed structurally (shared/peer-shapes.ts); its value is the SDK's client.
    injected: options.client as ReturnType<typeof createClient> | undefined,
    apiKey,
    missingKey: () => missingApiKey(name, 'Gemini API key missing: pass apiKey or set GEMINI_API_KEY'),
    create: (_sdk, key) => createClient(key),
  })
  const secrets = () => (apiKey ? [apiKey] : [])

  return {
    name,
    secrets,
    ...catalogued('gemini', geminiCapabilities),
    ...retryingStreams(
      { ...options, name, secrets, maxRetries: options.maxRetries ?? 2 },
      (request: ModelRequest): AttemptPlan => {
        const body = buildRequest(request, name)
        return {
          classify: (error) => classifyGeminiError(error, name),
          async attempt(builder, attemptSignal, emit) {
            const client = await getClient()
            // A local controller so a consumer that stops early also stops the HTTP body.
            const controller = new AbortController()
            const onAbort = () => controller.abort(attemptSignal.reason)
            attemptSignal.addEventListener('abort', onAbort, { once: true })
            if (attemptSignal.aborted) controller.abort(attemptSignal.reason)
            try {
              const chunks = streamGenerateContent(client, request.model, body, {
                ...(options.baseURL ? { baseUrl: options.baseURL.replace(/\/+$/, '') } : {}),
                signal: controller.signal,
              })
              await parseGeminiStream(chunks, builder, controller.signal, emit)
            } finally {
              attemptSignal.removeEventListener('abort', onAbort)
              controller.abort()
            }
          },
        }
      },
    ),
  }
}

/** The provider-neutral request as a Gemini body. */
export function buildRequest(original: ModelRequest, providerName: string): GeminiRequest {
  const nativeOutput =
    original.output !== undefined && (original.tools.length === 0 || combinesOutputWithTools(original.model))
  const request = original.output && !nativeOutput ? withOutputInstructions(original) : original
  const body: GeminiRequest = { contents: toGeminiContents(request.messages, providerName) }
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] }
  const tools = toGeminiTools(request.tools)
  if (tools) body.tools = tools
  // A tool choice without tools would be rejected; with none, Gemini has nothing to call anyway.
  const toolConfig = tools ? toGeminiToolConfig(request.toolChoice) : undefined
  if (toolConfig) body.toolConfig = toolConfig
  const generationConfig = toGenerationConfig(request.options)
  if (generationConfig) body.generationConfig = generationConfig
  if (nativeOutput && request.output) {
    body.generationConfig = {
      ...body.generationConfig,
      responseMimeType: 'application/json',
      responseSchema: toGeminiParameters(request.output.schema),
    }
  }
  return body
}

/**
 * Gemini 3 takes a response schema and function declarations in one request; earlier models
 * reject the pair, so with tools they get the schema in the instructions (validated all the same).
 */
export const combinesOutputWithTools = (model: string): boolean => /^(models\/)?gemini-([3-9]|\d\d)/.test(model)
