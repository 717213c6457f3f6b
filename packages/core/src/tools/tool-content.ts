import type { FileContent, ImageContent, TextContent, ToolResultContent, ToolResultMessage } from '../contract/types.js'

/** What every adapter maps: text, images and files. */
export type PlainToolContent = TextContent | ImageContent | FileContent

/**
 * A tool result's content as an adapter sends it: audio and binary resources become file parts
 * when `takesFile` accepts them (a model that reads such files), else a line of text naming them;
 * an embedded text resource is its text, an image resource an image, a resource link a line of
 * text. Content that needs no lowering is returned as the same array.
 */
export function plainToolContent(
  message: ToolResultMessage,
  takesFile: (part: FileContent) => boolean,
): PlainToolContent[] {
  if (message.content.every(isPlain)) return message.content as PlainToolContent[]
  return message.content.map((part) => (isPlain(part) ? part : lower(part, takesFile)))
}

const isPlain = (part: ToolResultContent): part is PlainToolContent =>
  part.type === 'text' || part.type === 'image' || part.type === 'file'

function lower(
  part: Exclude<ToolResultContent, PlainToolContent>,
  takesFile: (part: FileContent) => boolean,
): PlainToolContent {
  if (part.type === 'audio') {
    const file: FileContent = { type: 'file', data: part.data, mimeType: part.mimeType, name: 'audio' }
    return takesFile(file) ? file : { type: 'text', text: `[audio ${part.mimeType}, not shown]` }
  }
  if (part.type === 'resource_link') {
    const about = `${part.name ? ` "${part.name}"` : ''}${part.description ? `: ${part.description}` : ''}`
    return { type: 'text', text: `[resource ${part.uri}${about}]` }
  }
  const r = part.resource
  if (typeof r.text === 'string') return { type: 'text', text: `[resource ${r.uri}]\n${r.text}` }
  const mimeType = r.mimeType ?? 'application/octet-stream'
  if (mimeType.startsWith('image/')) return { type: 'image', data: r.blob, mimeType }
  const name = r.uri.split(/[/:]/).pop() || 'resource'
  const file: FileContent = { type: 'file', data: r.blob, mimeType, name }
  return takesFile(file) ? file : { type: 'text', text: `[resource ${r.uri} (${mimeType}), binary, not shown]` }
}
