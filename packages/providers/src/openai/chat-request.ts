import type { ModelRequest } from '@nestor/core/integration-kit'
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions'
import { toChatMessages } from './convert-messages.js'
import { toChatTools } from './convert-tools.js'
import { readRequestOptions } from './request-options.js'
import { toOpenAIToolChoice } from './tool-choice.js'
import { toOutputFormat } from './output-format.js'

/**
 * The Chat Completions body for one model call. Tool fields are only sent with tools: the API
 * rejects `parallel_tool_calls` without them, and 'none' with no tools is the default anyway.
 */
export function toChatRequest(request: ModelRequest, strict: boolean): ChatCompletionCreateParamsStreaming {
  const options = readRequestOptions(request.options)
  const body: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toChatMessages(request.messages, request.system),
    stream: true,
    stream_options: { include_usage: true },
  }
  if (request.tools.length > 0) {
    body.tools = toChatTools(request.tools, strict)
    Object.assign(
      body,
      toOpenAIToolChoice(request.toolChoice, { parallelToolCalls: request.parallelToolCalls, api: 'chat' }),
    )
  }
  if (request.output) {
    const format = toOutputFormat(request.output)
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: format.name, schema: format.schema, strict: format.strict },
    }
  }
  // max_tokens is deprecated and refused by reasoning models; max_completion_tokens works for all.
  if (options.maxTokens !== undefined) body.max_completion_tokens = options.maxTokens
  if (options.temperature !== undefined) body.temperature = options.temperature
  if (options.reasoningEffort !== undefined) body.reasoning_effort = options.reasoningEffort
  return { ...body, ...options.raw, stream: true } as ChatCompletionCreateParamsStreaming
}
