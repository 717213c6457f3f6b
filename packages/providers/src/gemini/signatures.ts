import type { AssistantMessage } from '@nestor/core'

// Where Gemini thought signatures live on Nestor messages, so they are replayed on the same part:
// - a functionCall part's signature → ToolCall.providerData.thoughtSignature
// - a thought (summary) part's signature → ThinkingContent.signature
// - a text part's signature → AssistantMessage.providerData.geminiTextSignatures, keyed by the index
//   of the text block in `content` (TextContent has no field of its own).

export const TEXT_SIGNATURES_KEY = 'geminiTextSignatures'

export function textSignatures(message: AssistantMessage): Record<string, string> {
  const value = message.providerData?.[TEXT_SIGNATURES_KEY]
  if (typeof value !== 'object' || value === null) return {}
  const out: Record<string, string> = {}
  for (const [key, signature] of Object.entries(value)) if (typeof signature === 'string') out[key] = signature
  return out
}

export function setTextSignature(message: AssistantMessage, contentIndex: number, signature: string): void {
  const current = textSignatures(message)
  current[String(contentIndex)] = signature
  message.providerData = { ...message.providerData, [TEXT_SIGNATURES_KEY]: current }
}
