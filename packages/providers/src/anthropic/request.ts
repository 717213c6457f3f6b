import type Anthropic from '@anthropic-ai/sdk'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { invalidOption } from '@nestor/core/integration-kit'
import { applyCacheControl, type resolveCacheControl } from './cache-control.js'
import { toAnthropicMessages } from './convert-messages.js'
import { toAnthropicTools } from './convert-tools.js'
import { anthropicCapabilities } from './capabilities.js'
import { toAnthropicToolChoice } from './tool-choice.js'

export type AnthropicRequestDefaults = {
  maxTokens: number
  thinking?: { budgetTokens: number }
  cacheControl?: ReturnType<typeof resolveCacheControl>
}

/** The body sent to `POST /v1/messages` (the SDK's streaming params, plus knobs its types dropped). */
export type AnthropicStreamParams = Anthropic.MessageCreateParamsStreaming & {
  temperature?: number
  top_p?: number
  top_k?: number
}

/**
 * ModelRequest → the Messages API body.
 *
 * `request.options` keys understood (camelCase or the wire's snake_case): `maxTokens`, `thinking`
 * (`{ budgetTokens }`, an Anthropic thinking object, or `false` to switch the default off),
 * `stopSequences`, `metadata`, and `temperature` / `topP` / `topK`. The last three are sent ONLY when
 * given: API version 2026-10-21 (SDK 1.x) rejects them, so no default is ever added.
 * With thinking on, `max_tokens` must exceed the budget; a smaller value is raised to
 * `budget + maxTokens` so the answer keeps its own allowance.
 * Tools and `tool_choice` are omitted when no tool is offered (the API rejects a choice without tools).
 */
export function buildAnthropicParams(
  request: ModelRequest,
  defaults: AnthropicRequestDefaults,
  providerName: string,
): AnthropicStreamParams {
  const options = request.options ?? {}
  const pick = (camel: string, snake: string): unknown => options[camel] ?? options[snake]
  const maxTokens = pick('maxTokens', 'max_tokens') ?? defaults.maxTokens
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw invalidOption('maxTokens', 'a positive integer', maxTokens)
  }
  const params: AnthropicStreamParams = {
    model: request.model,
    max_tokens: maxTokens,
    messages: toAnthropicMessages(request.messages, providerName),
    stream: true,
  }
  if (request.system) params.system = request.system
  if (request.tools.length > 0) {
    params.tools = toAnthropicTools(request.tools)
    const choice = toAnthropicToolChoice(request.toolChoice, { parallelToolCalls: request.parallelToolCalls })
    if (choice.tool_choice) params.tool_choice = choice.tool_choice as Anthropic.ToolChoice
  }
  // Native structured output (output_config.format); it combines with tools in one request.
  if (request.output)
    params.output_config = { format: { type: 'json_schema', schema: closeObjects(request.output.schema) } }
  const thinking = thinkingConfig(options.thinking ?? thinkOption(request, defaults), defaults.thinking)
  if (thinking) {
    params.thinking = thinking
    if (thinking.type === 'enabled' && params.max_tokens <= thinking.budget_tokens)
      params.max_tokens = thinking.budget_tokens + maxTokens
  }
  const numeric = (camel: string, snake: string, key: 'temperature' | 'top_p' | 'top_k') => {
    const value = pick(camel, snake)
    if (value === undefined) return
    if (typeof value !== 'number') throw invalidOption(camel, 'a number', value)
    params[key] = value
  }
  numeric('temperature', 'temperature', 'temperature')
  numeric('topP', 'top_p', 'top_p')
  numeric('topK', 'top_k', 'top_k')
  const stop = pick('stopSequences', 'stop_sequences')
  if (stop !== undefined) {
    if (!Array.isArray(stop) || !stop.every((s) => typeof s === 'string'))
      throw invalidOption('stopSequences', 'an array of strings', stop)
    params.stop_sequences = stop
  }
  if (options.metadata !== undefined) params.metadata = options.metadata as Anthropic.Metadata
  if (defaults.cacheControl) applyCacheControl(params, defaults.cacheControl)
  return params
}

/** Budget of `think: true` when the provider has no `thinking` default: the API's minimum. */
const THINK_BUDGET = 1024

/** `request.think` as a thinking option: off, or on with the provider's budget; a model that cannot think is refused. */
function thinkOption(request: ModelRequest, defaults: AnthropicRequestDefaults): unknown {
  if (request.think === undefined) return undefined
  if (!request.think) return false
  if (!anthropicCapabilities(request.model).thinking)
    throw invalidOption('think', `a model that can think (${request.model} has no extended thinking)`, true)
  return defaults.thinking ?? { budgetTokens: THINK_BUDGET }
}

function thinkingConfig(
  option: unknown,
  fallback: { budgetTokens: number } | undefined,
): Anthropic.ThinkingConfigParam | undefined {
  if (option === false || option === null) return undefined
  const chosen = option ?? fallback
  if (chosen === undefined) return undefined
  if (typeof chosen === 'object' && 'budgetTokens' in chosen) {
    const budget = (chosen as { budgetTokens: unknown }).budgetTokens
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1)
      throw invalidOption('thinking.budgetTokens', 'a positive integer', budget)
    return { type: 'enabled', budget_tokens: budget }
  }
  if (typeof chosen === 'object' && 'type' in chosen) return chosen as Anthropic.ThinkingConfigParam
  throw invalidOption('thinking', '{ budgetTokens } or an Anthropic thinking object', chosen)
}

/** Anthropic's structured output wants every object closed: `additionalProperties: false` where unset. */
function closeObjects(node: unknown): Record<string, unknown> {
  if (typeof node !== 'object' || node === null) return {}
  const close = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(close)
    if (typeof value !== 'object' || value === null) return value
    const out: Record<string, unknown> = {}
    for (const [key, child] of Object.entries(value))
      out[key] = key === 'enum' || key === 'const' || key === 'default' ? child : close(child)
    if ((out.type === 'object' || out.properties !== undefined) && out.additionalProperties === undefined)
      out.additionalProperties = false
    return out
  }
  return close(node) as Record<string, unknown>
}
