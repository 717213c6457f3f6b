import type { ToolResultContent } from '@nestor/core'

/**
 * What reading a resource gives: a string is text, bytes are a binary blob (sent base64), or the
 * contents spelled out (`blob` already base64). `mimeType` defaults to the resource's own.
 */
export type McpResourceBody =
  string | Uint8Array | { text: string; mimeType?: string } | { blob: string; mimeType?: string }

/** Suggests values for one argument from what the user typed so far (and the other arguments given). */
export type McpCompleter = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>

type ResourceInfo = { name: string; title?: string; description?: string; mimeType?: string }

/** A resource at one fixed URI. */
export type McpStaticResource = ResourceInfo & {
  uri: string
  read(uri: URL): McpResourceBody | Promise<McpResourceBody>
}

/**
 * A family of resources named by an RFC 6570 template (`notes://{folder}/{id}`): a URI that
 * matches is read with the template's variables; `complete` suggests values for them.
 */
export type McpResourceTemplate = ResourceInfo & {
  uriTemplate: string
  read(uri: URL, variables: Record<string, string>): McpResourceBody | Promise<McpResourceBody>
  complete?: Record<string, McpCompleter>
}

export type McpResource = McpStaticResource | McpResourceTemplate

export type McpPromptArgument = {
  name: string
  description?: string
  required?: boolean
  complete?: McpCompleter
}

/** A prompt message: plain text, or one content part (an image, audio, an embedded resource…). */
export type McpPromptMessage = { role: 'user' | 'assistant'; content: string | ToolResultContent }

/** A prompt template a client offers its user; `get` receives the arguments (strings, as MCP sends them). */
export type McpPrompt = {
  name: string
  title?: string
  description?: string
  arguments?: McpPromptArgument[]
  get(args: Record<string, string>): string | McpPromptMessage[] | Promise<string | McpPromptMessage[]>
}
