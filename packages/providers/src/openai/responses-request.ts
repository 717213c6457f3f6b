import type { ModelRequest } from '@nestor/core/integration-kit'
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses'
import { toResponsesTools } from './convert-tools.js'
import { readRequestOptions } from './request-options.js'
import { toResponsesInput } from './responses-input.js'
import { toOpenAIToolChoice } from './tool-choice.js'
import { toOutputFormat } from './output-format.js'

/**
 * The Responses API body for one model call. The system prompt goes to `instructions`. Reasoning
 * items are replayed from history, and their encrypted content is requested so replay also works
 * with `store: false` (a raw option).
 */
export function toResponsesRequest(
  request: ModelRequest,
  strict: boolean,
  provider: string,
): ResponseCreateParamsStreaming {
  const options = readRequestOptions(request.options)
  const body: ResponseCreateParamsStreaming = {
    model: request.model,
    input: toResponsesInput(request.messages, provider),
    stream: true,
  }
  if (request.system) body.instructions = request.system
  if (request.tools.length > 0) {
    body.tools = toResponsesTools(request.tools, strict)
    Object.assign(
      body,
      toOpenAIToolChoice(request.toolChoice, { parallelToolCalls: request.parallelToolCalls, api: 'responses' }),
    )
  }
  if (request.output) body.text = { format: { type: 'json_schema', ...toOutputFormat(request.output) } }
  if (options.maxTokens !== undefined) body.max_output_tokens = options.maxTokens
  if (options.temperature !== undefined) body.temperature = options.temperature
  if (options.reasoningEffort !== undefined) {
    body.reasoning = { effort: options.reasoningEffort }
    body.include = ['reasoning.encrypted_content']
  }
  return { ...body, ...options.raw, stream: true } as ResponseCreateParamsStreaming
}
