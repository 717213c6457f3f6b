import type { JSONSchema } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/provider-kit'
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions'
import type { FunctionTool } from 'openai/resources/responses/responses'
import { toStrictSchema } from './strict-schema.js'

/** A tool's parameters as OpenAI wants them: an object schema, strict-rewritten when asked. */
export function openAIParameters(spec: ToolSpec, strict: boolean): JSONSchema {
  const parameters = Object.keys(spec.parameters).length === 0 ? { type: 'object', properties: {} } : spec.parameters
  return strict ? toStrictSchema(parameters) : parameters
}

/** ToolSpec → Chat Completions `{ type: 'function', function: {...} }`. */
export function toChatTools(specs: ToolSpec[], strict: boolean): ChatCompletionFunctionTool[] {
  return specs.map((spec) => ({
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: openAIParameters(spec, strict),
      ...(strict ? { strict: true } : {}),
    },
  }))
}

/** ToolSpec → Responses `{ type: 'function', name, ... }` (flat; `strict` is a required field there). */
export function toResponsesTools(specs: ToolSpec[], strict: boolean): FunctionTool[] {
  return specs.map((spec) => ({
    type: 'function',
    name: spec.name,
    description: spec.description,
    parameters: openAIParameters(spec, strict),
    strict,
  }))
}
