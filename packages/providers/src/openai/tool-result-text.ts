import type { ToolCall, ToolResultMessage } from '@nestor/core'
import type { PlainToolContent } from '@nestor/core/integration-kit'

/**
 * OpenAI tool results carry no error flag, so an error result says so in its text; the model
 * must not take a failure for data.
 */
export function toolResultText(result: ToolResultMessage, content: PlainToolContent[]): string {
  const text = content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n')
  if (!result.isError) return text
  return /^error\b/i.test(text) ? text : `Error: ${text}`
}

/**
 * The arguments sent back on replay. A call whose streamed arguments were not JSON is replayed
 * as `{}` (its error result explains what went wrong), so the request stays valid JSON.
 */
export const replayArguments = (call: ToolCall): string => JSON.stringify(call.arguments)
