import type { ToolChoice } from '@nestor/core'
import type { GeminiToolConfig } from './wire-types.js'

/**
 * Maps Nestor's tool choice onto Gemini's `toolConfig`. A named function is `ANY` restricted to
 * that one name. Gemini has no parallel-calls knob, so `parallelToolCalls` has nothing to map to.
 * No choice → undefined: the API then defaults to AUTO.
 */
export function toGeminiToolConfig(choice: ToolChoice | undefined): GeminiToolConfig | undefined {
  if (choice === undefined) return undefined
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } }
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } }
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } }
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } }
}
