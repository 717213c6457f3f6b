import type { JSONSchema } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'

/** Anthropic's custom tool definition (structural subset of the SDK's `Tool`). */
export type AnthropicTool = {
  name: string
  description: string
  input_schema: { type: 'object'; [key: string]: unknown }
}

/**
 * Tool specs → Anthropic `tools`. The API requires `input_schema.type` to be `"object"`, so it is
 * forced; `$schema` is dropped because the dialect is fixed by the API (draft 2020-12) and a
 * foreign draft URI only risks a 400.
 */
export function toAnthropicTools(tools: readonly ToolSpec[]): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: toInputSchema(tool.parameters),
  }))
}

function toInputSchema(schema: JSONSchema): AnthropicTool['input_schema'] {
  const { $schema: _dropped, type: _type, ...rest } = schema
  return { type: 'object', properties: {}, ...rest }
}
