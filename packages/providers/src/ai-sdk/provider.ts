import type { LanguageModelV3 } from '@ai-sdk/provider'
import type { Provider } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { invalidOption } from '@nestor/core/integration-kit'
import type { AiSdkModel } from '../shared/peer-shapes.js'
import {
  finalAfterContent,
  type RequestAttempt,
  retryingStreams,
  type RetryOptions,
} from '../shared/retrying-provider.js'
import { buildCallOptions } from './call-options.js'
import { classifyAiSdkError } from './errors.js'
import { parseAiSdkStream, readableParts } from './stream.js'

export type AiSdkOptions = RetryOptions & {
  /** Provider name on messages and errors. Default: the model's `provider` (e.g. 'openai.chat'). */
  name?: string
  /** Strings to redact from errors and events (the key you gave the `@ai-sdk/*` provider). */
  secrets?: string[]
}

/**
 * Any AI SDK 6 `LanguageModelV3` (`openai('gpt-4o')`, `bedrock(…)`, `vertex(…)`, every `@ai-sdk/*`
 * provider) as a Nestor provider: `doStream` is called once per attempt, its parts become Nestor
 * model events. The model is fixed, so `request.model` is ignored and messages carry the model's
 * own `modelId`. Only types come from `@ai-sdk/provider`: nothing of the AI SDK is loaded by this
 * adapter (the model object brings its own code).
 */
export function aiSdk(input: AiSdkModel, options: AiSdkOptions = {}): Provider {
  // Typed structurally for the declarations (shared/peer-shapes.ts); the value is the SDK's model.
  const model = input as LanguageModelV3 | undefined
  if (!model || typeof model !== 'object' || typeof (model as { doStream?: unknown }).doStream !== 'function') {
    throw invalidOption('model', 'an AI SDK LanguageModelV3', model)
  }
  if (model.specificationVersion !== 'v3')
    throw invalidOption('model.specificationVersion', "'v3' (AI SDK 6)", model.specificationVersion)
  const name = options.name ?? model.provider
  const secrets = (): string[] => options.secrets?.filter((s) => s !== '') ?? []
  const attempt: RequestAttempt = async (request, builder, signal, emit) => {
    const call = buildCallOptions(request, name, signal)
    const result = await model.doStream(call)
    await parseAiSdkStream(readableParts(result.stream, signal), builder, signal, emit)
  }

  const streams = retryingStreams(
    { ...options, name, secrets },
    finalAfterContent(attempt, (error) => classifyAiSdkError(error, name)),
  )
  const own = (request: ModelRequest): ModelRequest => ({ ...request, model: model.modelId })
  return {
    name,
    stream: (request, signal) => streams.stream(own(request), signal),
    streamTo: (request, signal, sink) => streams.streamTo(own(request), signal, sink),
    secrets,
  }
}
