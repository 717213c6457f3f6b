import type { LanguageModelV3CallOptions, LanguageModelV3ToolChoice, SharedV3ProviderOptions } from '@ai-sdk/provider'
import type { ToolChoice } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { invalidOption } from '@nestor/core/integration-kit'
import { toAiSdkPrompt } from './convert-messages.js'

const numeric = {
  maxTokens: 'maxOutputTokens',
  temperature: 'temperature',
  topP: 'topP',
  topK: 'topK',
  seed: 'seed',
  presencePenalty: 'presencePenalty',
  frequencyPenalty: 'frequencyPenalty',
} as const

/**
 * ModelRequest → `LanguageModelV3CallOptions`. `request.options` keys: `maxTokens` (→
 * `maxOutputTokens`), `temperature`, `topP`, `topK`, `seed`, `presencePenalty`,
 * `frequencyPenalty`, `stopSequences`, `providerOptions` (passed to the model as is) and `headers`.
 * The V3 spec has no parallel-calls knob: `parallelToolCalls` must go through `providerOptions`.
 */
export function buildCallOptions(
  request: ModelRequest,
  providerName: string,
  signal: AbortSignal,
): LanguageModelV3CallOptions {
  const options = request.options ?? {}
  const call: LanguageModelV3CallOptions = {
    prompt: toAiSdkPrompt(request.system, request.messages, providerName),
    abortSignal: signal,
  }
  for (const [key, target] of Object.entries(numeric) as [
    keyof typeof numeric,
    (typeof numeric)[keyof typeof numeric],
  ][]) {
    const value = options[key]
    if (value === undefined) continue
    if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidOption(key, 'a number', value)
    call[target] = value
  }
  if (options.stopSequences !== undefined) {
    const stop = options.stopSequences
    if (!Array.isArray(stop) || !stop.every((s) => typeof s === 'string'))
      throw invalidOption('stopSequences', 'an array of strings', stop)
    call.stopSequences = stop
  }
  if (options.providerOptions !== undefined) {
    if (typeof options.providerOptions !== 'object' || options.providerOptions === null)
      throw invalidOption('providerOptions', 'an object', options.providerOptions)
    call.providerOptions = options.providerOptions as SharedV3ProviderOptions
  }
  if (options.headers !== undefined) call.headers = options.headers as Record<string, string>
  // Typed output natively: the V3 spec's JSON response format (each provider maps it to its own).
  if (request.output)
    call.responseFormat = { type: 'json', schema: request.output.schema as never, name: request.output.name }
  if (request.tools.length > 0) {
    call.tools = request.tools.map((tool) => ({
      type: 'function' as const,
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as never,
    }))
    const choice = toAiSdkToolChoice(request.toolChoice)
    if (choice) call.toolChoice = choice
  }
  return call
}

/** Nestor's tool choice in the V3 spec's shape (its members map one to one). */
export function toAiSdkToolChoice(choice: ToolChoice | undefined): LanguageModelV3ToolChoice | undefined {
  if (choice === undefined) return undefined
  if (typeof choice === 'string') return { type: choice }
  return { type: 'tool', toolName: choice.name }
}
