import type { ConverseStreamCommandInput, Tool } from '@aws-sdk/client-bedrock-runtime'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { invalidOption } from '@nestor/core/integration-kit'
import { hasToolHistory, toBedrockMessages } from './convert-messages.js'
import { toBedrockToolChoice } from './tool-choice.js'
import { bedrockCapabilities } from './capabilities.js'
import { withOutputInstructions } from '../shared/output-instructions.js'

export type BedrockRequestDefaults = { maxTokens?: number; thinking?: { budgetTokens: number } }

/**
 * ModelRequest → the ConverseStream input.
 *
 * `request.options` keys: `maxTokens`, `temperature`, `topP`, `stopSequences` (inferenceConfig),
 * `thinking` (`{ budgetTokens }` or `false`; sent as Anthropic's `thinking` in
 * `additionalModelRequestFields`, which is how Claude on Bedrock takes it) and
 * `additionalModelRequestFields` (merged in, for other model families' knobs).
 * Converse has no 'none' tool choice: see `toBedrockToolChoice` for how it is emulated.
 */
export function buildConverseInput(
  original: ModelRequest,
  defaults: BedrockRequestDefaults,
  providerName: string,
): ConverseStreamCommandInput {
  // Converse has no structured-output field: typed output is stated in the system prompt.
  const request = withOutputInstructions(original)
  const options = request.options ?? {}
  const input: ConverseStreamCommandInput = {
    modelId: request.model,
    messages: toBedrockMessages(request.messages, providerName),
  }
  if (request.system) input.system = [{ text: request.system }]
  const inference: NonNullable<ConverseStreamCommandInput['inferenceConfig']> = {}
  const maxTokens = options.maxTokens ?? defaults.maxTokens
  if (maxTokens !== undefined) {
    if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
      throw invalidOption('maxTokens', 'a positive integer', maxTokens)
    inference.maxTokens = maxTokens
  }
  for (const key of ['temperature', 'topP'] as const) {
    const value = options[key]
    if (value === undefined) continue
    if (typeof value !== 'number') throw invalidOption(key, 'a number', value)
    inference[key] = value
  }
  if (options.stopSequences !== undefined) {
    const stop = options.stopSequences
    if (!Array.isArray(stop) || !stop.every((s) => typeof s === 'string'))
      throw invalidOption('stopSequences', 'an array of strings', stop)
    inference.stopSequences = stop
  }
  if (Object.keys(inference).length > 0) input.inferenceConfig = inference

  const extra: Record<string, unknown> = {}
  const thinking = options.thinking ?? thinkOption(request, defaults) ?? defaults.thinking
  if (thinking !== undefined && thinking !== false) {
    const budget = (thinking as { budgetTokens?: unknown }).budgetTokens
    if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1)
      throw invalidOption('thinking.budgetTokens', 'a positive integer', budget)
    extra.thinking = { type: 'enabled', budget_tokens: budget }
  }
  const more = options.additionalModelRequestFields
  if (more !== undefined) {
    if (typeof more !== 'object' || more === null || Array.isArray(more))
      throw invalidOption('additionalModelRequestFields', 'an object', more)
    Object.assign(extra, more)
  }
  if (Object.keys(extra).length > 0) input.additionalModelRequestFields = extra as never

  if (request.tools.length > 0) {
    const choice = toBedrockToolChoice(request.toolChoice, { hasToolHistory: hasToolHistory(request.messages) })
    if (!choice.omitTools) {
      const tools: Tool[] = request.tools.map((tool) => ({
        toolSpec: {
          name: tool.name,
          description: tool.description || tool.name,
          inputSchema: { json: tool.parameters as never },
        },
      }))
      input.toolConfig = { tools, ...(choice.toolChoice ? { toolChoice: choice.toolChoice } : {}) }
    }
  }
  return input
}

/** Budget of `think: true` when the provider has no `thinking` default: Claude's minimum. */
const THINK_BUDGET = 1024

/** `request.think` as a thinking option: off, or on with the default budget; a model that cannot think is refused. */
function thinkOption(request: ModelRequest, defaults: BedrockRequestDefaults): unknown {
  if (request.think === undefined) return undefined
  if (!request.think) return false
  if (!bedrockCapabilities(request.model).thinking)
    throw invalidOption('think', `a model that can think (${request.model} has no extended thinking)`, true)
  return defaults.thinking ?? { budgetTokens: THINK_BUDGET }
}
