// The one file that imports @google/generative-ai. The package is end-of-life upstream; swapping it
// (e.g. for @google/genai) means rewriting this file only: everything else speaks the raw wire
// shapes of wire-types.ts.
import type {
  Content,
  FunctionCallingMode,
  GenerateContentRequest,
  GoogleGenerativeAI,
  Tool,
  ToolConfig,
} from '@google/generative-ai'
import { importPeer } from '../shared/import-peer.js'
import type { GeminiChunk, GeminiRequest } from './wire-types.js'

type GeminiSdk = typeof import('@google/generative-ai')
let loaded: GeminiSdk | undefined

/** Imports @google/generative-ai (an optional peer dependency) on the first call that needs it. */
export async function loadGeminiSdk(adapter: string): Promise<void> {
  loaded ??= await importPeer(() => import('@google/generative-ai'), '@google/generative-ai', adapter)
}

function sdk(): GeminiSdk {
  if (!loaded) throw new Error('@google/generative-ai used before loadGeminiSdk()')
  return loaded
}

export function createClient(apiKey: string): GoogleGenerativeAI {
  return new (sdk().GoogleGenerativeAI)(apiKey)
}

/** The key an injected client carries, so the redactor can hide it too. */
export function clientApiKey(client: { readonly apiKey: unknown }): string {
  return typeof client.apiKey === 'string' ? client.apiKey : ''
}

/**
 * Sends one streamGenerateContent request and yields the raw parsed chunks. The SDK never retries
 * (the caller does). Our request is passed as the SDK's types by cast: the body is
 * `JSON.stringify` of it, so fields its types lack (thoughtSignature, functionCall.id) go through.
 */
export async function* streamGenerateContent(
  client: GoogleGenerativeAI,
  model: string,
  request: GeminiRequest,
  options: { baseUrl?: string; signal: AbortSignal },
): AsyncGenerator<GeminiChunk> {
  const generative = client.getGenerativeModel({ model }, options.baseUrl ? { baseUrl: options.baseUrl } : {})
  const sdkRequest: GenerateContentRequest = {
    contents: request.contents as Content[],
    ...(request.systemInstruction ? { systemInstruction: request.systemInstruction as Content } : {}),
    ...(request.tools ? { tools: request.tools as Tool[] } : {}),
    ...(request.toolConfig ? { toolConfig: toSdkToolConfig(request.toolConfig) } : {}),
    ...(request.generationConfig ? { generationConfig: request.generationConfig } : {}),
  }
  // 0.24 only listens for a future 'abort' event: a signal aborted already would be ignored.
  if (options.signal.aborted) throw new (sdk().GoogleGenerativeAIAbortError)('Request aborted before it was sent')
  const result = await generative.generateContentStream(sdkRequest, { signal: options.signal })
  // The aggregated promise is never used (it corrupts parallel calls, see stream.ts), but it
  // rejects when the stream fails: observe it so that is not an unhandled rejection.
  result.response.catch(() => undefined)
  for await (const chunk of result.stream) yield chunk as unknown as GeminiChunk
}

function toSdkToolConfig(config: NonNullable<GeminiRequest['toolConfig']>): ToolConfig {
  const { mode, allowedFunctionNames } = config.functionCallingConfig
  return {
    functionCallingConfig: {
      mode: mode as FunctionCallingMode,
      ...(allowedFunctionNames ? { allowedFunctionNames } : {}),
    },
  }
}

/** The SDK's failures, described without its classes so errors.ts stays SDK-agnostic. */
export type SdkFailure =
  | { kind: 'http'; status: number; statusText: string; message: string; details: unknown[] }
  | { kind: 'abort'; message: string }
  | { kind: 'transport'; message: string }
  | { kind: 'parse'; message: string }
  | { kind: 'other'; message: string }

export function describeSdkError(error: unknown): SdkFailure {
  // Only an attempt that loaded the SDK can fail with its errors.
  const { GoogleGenerativeAIFetchError, GoogleGenerativeAIAbortError, GoogleGenerativeAIError } = loaded ?? {}
  if (GoogleGenerativeAIFetchError && error instanceof GoogleGenerativeAIFetchError) {
    const details = Array.isArray(error.errorDetails) ? (error.errorDetails as unknown[]) : []
    return {
      kind: 'http',
      status: error.status ?? 0,
      statusText: error.statusText ?? '',
      message: error.message,
      details,
    }
  }
  if (GoogleGenerativeAIAbortError && error instanceof GoogleGenerativeAIAbortError)
    return { kind: 'abort', message: error.message }
  if (GoogleGenerativeAIError && error instanceof GoogleGenerativeAIError) {
    // The SDK folds these into one class; its messages are the only distinction it offers.
    if (/Error parsing JSON response|Failed to parse stream/.test(error.message))
      return { kind: 'parse', message: error.message }
    if (/Error fetching from|Error reading from the stream/.test(error.message))
      return { kind: 'transport', message: error.message }
    return { kind: 'other', message: error.message }
  }
  if (error instanceof TypeError) return { kind: 'transport', message: error.message }
  if (error instanceof Error && error.name === 'AbortError') return { kind: 'abort', message: error.message }
  return { kind: 'other', message: error instanceof Error ? error.message : String(error) }
}
