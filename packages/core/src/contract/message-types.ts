// The messages of a conversation and what they hold: public API (docs/design.md), re-exported by
// types.ts, where every public type of @nestor/core can be found.

// ─── Messages ────────────────────────────────────────────────────────────────

export type TextContent = { type: 'text'; text: string }
/** Model reasoning. `signature` is opaque provider data that must be replayed unmodified. */
export type ThinkingContent = { type: 'thinking'; thinking: string; signature?: string; redacted?: boolean }
/**
 * An image by value (`data`: base64 without a data: prefix) or by reference (`url`: https, or a
 * provider's own scheme such as gs:// or s3://). Adapters that cannot take a kind fail
 * `invalid_options` before the request, naming the part.
 */
export type ImageContent =
  | { type: 'image'; data: string; mimeType: string; url?: never }
  | { type: 'image'; url: string; mimeType?: string; data?: never }
/** A document (PDF, plain text…) by value or by reference; `name` is shown to models that take one. */
export type FileContent =
  | { type: 'file'; data: string; mimeType: string; name?: string; url?: never }
  | { type: 'file'; url: string; mimeType: string; name?: string; data?: never }
/** Audio by value (`data`: base64), as MCP tools return it. Models that take no audio get it named in text. */
export type AudioContent = { type: 'audio'; data: string; mimeType: string }
/** A resource embedded in a tool result (MCP `resource`): its text, or its bytes as base64 `blob`. */
export type ResourceContent = {
  type: 'resource'
  resource:
    | { uri: string; mimeType?: string; text: string; blob?: never }
    | { uri: string; mimeType?: string; blob: string; text?: never }
}
/** A pointer to a resource (MCP `resource_link`): the model sees its uri and name, not its contents. */
export type ResourceLinkContent = {
  type: 'resource_link'
  uri: string
  name: string
  mimeType?: string
  description?: string
}
/** What a tool result may hold. Adapters lower what their API cannot take (see `lowerToolResults`). */
export type ToolResultContent =
  TextContent | ImageContent | FileContent | AudioContent | ResourceContent | ResourceLinkContent
/**
 * A call the model asked for. `id` is unique and non-empty (generated if the provider sent none).
 * `providerData` carries opaque per-call data a provider must get back on replay
 * (Gemini thought signatures, OpenAI Responses item ids).
 */
export type ToolCall = {
  type: 'toolCall'
  id: string
  name: string
  arguments: Record<string, unknown>
  providerData?: Record<string, unknown>
  /** Set when the streamed arguments were not a JSON object: the raw text. The call is never run. */
  invalidArguments?: string
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted'

/**
 * Tokens of a turn (or a sum of turns). `input` excludes cached tokens (`cacheRead`, `cacheWrite`).
 * `cost`: the same split in US dollars, absent when a price is unknown (never a guess): docs/cost.md.
 */
export type Usage = {
  input: number
  output: number
  cacheRead: number
  cacheWrite: number
  total: number
  cost?: UsageCost
}
/** US dollars, split as the tokens are; `total` is their sum. */
export type UsageCost = { input: number; output: number; cacheRead: number; cacheWrite: number; total: number }

export type UserMessage = { role: 'user'; content: string | (TextContent | ImageContent | FileContent)[] }
export type AssistantMessage = {
  role: 'assistant'
  content: (TextContent | ThinkingContent | ToolCall)[]
  stopReason: StopReason
  usage: Usage
  provider: string
  model: string
  errorMessage?: string
  /** The provider's id for this response, when it sent one (for tracing and support requests). */
  responseId?: string
  /** Set when the model refused to answer (OpenAI `refusal`, Anthropic's `refusal` stop reason): its explanation. */
  refusal?: string
  /** Opaque provider data for the whole message (e.g. OpenAI Responses reasoning items), replayed as is. */
  providerData?: Record<string, unknown>
}
export type ToolResultMessage = {
  role: 'toolResult'
  toolCallId: string
  toolName: string
  content: ToolResultContent[]
  isError: boolean
  /** For events and UIs only; never sent to the model. */
  details?: unknown
}
export type Message = UserMessage | AssistantMessage | ToolResultMessage

/** What a provider fills in on an assistant message it returns: a hand-written one may leave them out. */
export type ProviderFilledFields = 'stopReason' | 'usage' | 'provider' | 'model'
/**
 * A message of a supplied `history`. An assistant message written by hand may leave out what a
 * provider fills in: `stopReason` is then 'toolUse' when it calls tools, else 'stop'; `usage` is
 * zero; `provider` and `model` are ''. Messages from an earlier result pass as they are.
 */
export type HistoryMessage =
  Message | (Omit<AssistantMessage, ProviderFilledFields> & Partial<Pick<AssistantMessage, ProviderFilledFields>>)
