import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ImageContent, TextContent, ToolOutput, ToolResultMessage } from '@nestor/core'

type Part = TextContent | ImageContent
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
 * An MCP tool result as a Nestor tool output: text and images as they are, embedded resources as
 * their text (or image), resource links and audio as a line of text naming them. Structured
 * content goes to `details` (what an output gate checks and UIs show), and stands in for the text
 * when the server sent no content.
 */
export function toToolOutput(result: CallToolResult): ToolOutput {
  const content = (result.content ?? []).flatMap(toParts)
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

function toParts(item: McpContent): Part[] {
  switch (item.type) {
    case 'text':
      return [{ type: 'text', text: item.text }]
    case 'image':
      return [{ type: 'image', data: item.data, mimeType: item.mimeType }]
    case 'audio':
      return [{ type: 'text', text: `[audio ${item.mimeType}, not shown]` }]
    case 'resource_link':
      return [
        {
          type: 'text',
          text: `[resource ${item.uri}${item.name ? ` "${item.name}"` : ''}${item.description ? `: ${item.description}` : ''}]`,
        },
      ]
    case 'resource': {
      const r = item.resource
      if ('text' in r && typeof r.text === 'string') return [{ type: 'text', text: `[resource ${r.uri}]\n${r.text}` }]
      if ('blob' in r && r.mimeType?.startsWith('image/'))
        return [{ type: 'image', data: r.blob, mimeType: r.mimeType }]
      return [{ type: 'text', text: `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, binary, not shown]` }]
    }
    default:
      return [{ type: 'text', text: `[${(item as { type: string }).type} content, not shown]` }]
  }
}

/**
 * A Nestor tool result as MCP content, for `serveMcp`: text and inline images as they are, media
 * by URL as resource links, inline files as embedded binary resources.
 */
export function toMcpContent(parts: ToolResultMessage['content']): McpContent[] {
  return parts.map((part): McpContent => {
    if (part.type === 'text') return { type: 'text', text: part.text }
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
  })
}
