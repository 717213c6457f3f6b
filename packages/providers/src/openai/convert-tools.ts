import type { JSONSchema } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions'
import type { FunctionTool } from 'openai/resources/responses/responses'
import { perMessage } from '../shared/per-message.js'
import { toStrictSchema } from './strict-schema.js'

/** A tool's parameters as OpenAI wants them: an object schema, strict-rewritten when asked. */
export function openAIParameters(spec: ToolSpec, strict: boolean): JSONSchema {
  const parameters = Object.keys(spec.parameters).length === 0 ? { type: 'object', properties: {} } : spec.parameters
  return strict ? toStrictSchema(parameters) : parameters
}

// Converted once per spec object (the same specs are offered on every turn of an exec, and the
// strict rewrite walks the whole schema).
const chatTool = perMessage((spec: ToolSpec, mode: string): ChatCompletionFunctionTool => ({
  type: 'function',
  function: {
    name: spec.name,
    description: spec.description,
    parameters: openAIParameters(spec, mode === 'strict'),
    ...(mode === 'strict' ? { strict: true } : {}),
  },
}))
const responsesTool = perMessage((spec: ToolSpec, mode: string): FunctionTool => ({
  type: 'function',
  name: spec.name,
  description: spec.description,
  parameters: openAIParameters(spec, mode === 'strict'),
  strict: mode === 'strict',
}))

/** ToolSpec → Chat Completions `{ type: 'function', function: {...} }`. */
export function toChatTools(specs: ToolSpec[], strict: boolean): ChatCompletionFunctionTool[] {
  return specs.map((spec) => chatTool(spec, strict ? 'strict' : 'loose'))
}

/** ToolSpec → Responses `{ type: 'function', name, ... }` (flat; `strict` is a required field there). */
export function toResponsesTools(specs: ToolSpec[], strict: boolean): FunctionTool[] {
  return specs.map((spec) => responsesTool(spec, strict ? 'strict' : 'loose'))
}
