import type { ToolChoice } from '@nestor/core'

/** Chat Completions `tool_choice` values Nestor produces. */
export type OpenAIChatToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; function: { name: string } }
/** Responses API `tool_choice` values Nestor produces (the named form is flat: no `function` wrapper). */
export type OpenAIResponsesToolChoice = 'auto' | 'required' | 'none' | { type: 'function'; name: string }

export type OpenAIToolChoiceOptions = {
  parallelToolCalls?: boolean
  /** Which OpenAI protocol the fields are for. Default 'chat'. */
  api?: 'chat' | 'responses'
}

export type OpenAIToolChoiceFields<C = OpenAIChatToolChoice | OpenAIResponsesToolChoice> = {
  tool_choice?: C
  parallel_tool_calls?: boolean
}

/**
 * Maps a Nestor tool choice and the parallel-calls knob onto OpenAI request fields. Pure: the
 * fields it leaves out are the API's defaults (`auto` when tools are present, parallel calls on).
 * Both protocols express all four choices; only the named shape differs.
 */
export function toOpenAIToolChoice(
  choice: ToolChoice | undefined,
  options: OpenAIToolChoiceOptions & { api: 'responses' },
): OpenAIToolChoiceFields<OpenAIResponsesToolChoice>
export function toOpenAIToolChoice(
  choice: ToolChoice | undefined,
  options?: OpenAIToolChoiceOptions & { api?: 'chat' },
): OpenAIToolChoiceFields<OpenAIChatToolChoice>
export function toOpenAIToolChoice(
  choice: ToolChoice | undefined,
  options: OpenAIToolChoiceOptions = {},
): OpenAIToolChoiceFields {
  const fields: OpenAIToolChoiceFields = {}
  if (choice !== undefined) {
    if (typeof choice === 'string') fields.tool_choice = choice
    else if (options.api === 'responses') fields.tool_choice = { type: 'function', name: choice.name }
    else fields.tool_choice = { type: 'function', function: { name: choice.name } }
  }
  if (options.parallelToolCalls !== undefined) fields.parallel_tool_calls = options.parallelToolCalls
  return fields
}
