import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ResourceContent, TextContent, ToolOutput, ToolResultContent } from '@nestor/core'

type McpContent = CallToolResult['content'][number]

/** An MCP `isError` result: its text becomes the error result the model sees. */
export class McpToolError extends Error {
  override name = 'McpToolError'
  constructor(
    message: string,
    readonly result: CallToolResult,
  ) {
    super(message)
  }
}

/**
 * An MCP tool result as a Nestor tool output: text, images, audio, embedded resources and resource
 * links as the same parts (each provider adapter lowers what its model cannot take). Structured
 * content goes to `details` (what an output gate checks and UIs show), and stands in for the text
 * when the server sent no content.
 */
export function toToolOutput(result: CallToolResult): ToolOutput {
  const content = (result.content ?? []).map(toPart)
  if (result.isError) {
    const text = content
      .filter((p): p is TextContent => p.type === 'text')
      .map((p) => p.text)
      .join('\n')
    throw new McpToolError(text || 'the MCP tool reported an error', result)
  }
  if (content.length === 0) {
    content.push({
      type: 'text',
      text: result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent),
    })
  }
  return result.structuredContent === undefined ? { content } : { content, details: result.structuredContent }
}

/** The fields Nestor keeps of each MCP part (`annotations` and `_meta` stay with the server). */
function toPart(item: McpContent): ToolResultContent {
  switch (item.type) {
    case 'text':
      return { type: 'text', text: item.text }
    case 'image':
      return { type: 'image', data: item.data, mimeType: item.mimeType }
    case 'audio':
      return { type: 'audio', data: item.data, mimeType: item.mimeType }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: item.uri,
        name: item.name,
        ...(item.mimeType !== undefined && { mimeType: item.mimeType }),
        ...(item.description !== undefined && { description: item.description }),
      }
    case 'resource': {
      const r = item.resource
      const mime = r.mimeType !== undefined ? { mimeType: r.mimeType } : {}
      const resource: ResourceContent['resource'] =
        'text' in r && typeof r.text === 'string'
          ? { uri: r.uri, ...mime, text: r.text }
          : { uri: r.uri, ...mime, blob: String((r as { blob?: unknown }).blob ?? '') }
      return { type: 'resource', resource }
    }
    default:
      return { type: 'text', text: `[${(item as { type: string }).type} content, not shown]` }
  }
}

/**
 * A Nestor tool result as MCP content, for `serveMcp`: text, inline images, audio and resources as
 * they are, media by URL as resource links, inline files as embedded binary resources.
 */
export function toMcpContent(parts: ToolResultContent[]): McpContent[] {
  return parts.map((part): McpContent => {
    switch (part.type) {
      case 'text':
      case 'audio':
      case 'resource':
      case 'resource_link':
        return part
      case 'image':
      case 'file':
        if (part.url !== undefined)
          return {
            type: 'resource_link',
            uri: part.url,
            name: part.type === 'file' ? (part.name ?? part.url) : part.url,
            ...(part.mimeType ? { mimeType: part.mimeType } : {}),
          }
        if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mimeType }
        return {
          type: 'resource',
          resource: {
            uri: `nestor:file/${encodeURIComponent(part.name ?? 'file')}`,
            mimeType: part.mimeType,
            blob: part.data,
          },
        }
    }
  })
}
