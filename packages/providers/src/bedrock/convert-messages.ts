import type { ContentBlock, Message as BedrockMessage, ToolResultContentBlock } from '@aws-sdk/client-bedrock-runtime'
import type { AssistantMessage, FileContent, ImageContent, Message, TextContent, ToolResultMessage } from '@nestor/core'
import { checkMedia, fileNameOf, hasData, toolContent, type MediaPart, type MediaRule } from '../shared/media.js'

type Role = 'user' | 'assistant'

/**
 * Nestor history → Converse `messages`.
 *
 * - Roles must alternate: consecutive same-role turns are merged, so all results answering one
 *   assistant turn land in ONE user message as `toolResult` blocks.
 * - A failed result is `status: 'error'`, which Converse only accepts with non-empty content.
 * - Reasoning produced by this provider is replayed unmodified (`reasoningText` with its signature,
 *   or `redactedContent`); reasoning from another provider cannot be verified and is dropped.
 * - Empty text blocks are dropped (Converse rejects blank text).
 */
export function toBedrockMessages(messages: readonly Message[], providerName: string): BedrockMessage[] {
  checkMedia(messages, providerName, bedrockMedia)
  const turns: { role: Role; content: ContentBlock[] }[] = []
  const push = (role: Role, content: ContentBlock[]) => {
    if (content.length === 0) return
    const last = turns.at(-1)
    if (last && last.role === role) last.content.push(...content)
    else turns.push({ role, content })
  }
  messages.forEach((message) => {
    if (message.role === 'user') {
      const parts =
        typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
      push(
        'user',
        parts.flatMap((part, i) => userBlock(part, i)),
      )
    } else if (message.role === 'toolResult') push('user', [toolResultBlock(message)])
    else push('assistant', assistantBlocks(message, providerName))
  })
  return turns
}

function userBlock(part: TextContent | ImageContent | FileContent, index: number): ContentBlock[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }]
  return [mediaBlock(part, index) as ContentBlock]
}

const imageFormats: Record<string, 'png' | 'jpeg' | 'gif' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
}
type DocumentFormat = 'pdf' | 'csv' | 'doc' | 'docx' | 'xls' | 'xlsx' | 'html' | 'txt' | 'md'
const documentFormats: Record<string, DocumentFormat> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
}

/**
 * Converse takes image bytes (png, jpeg, gif, webp) and documents (pdf, csv, doc(x), xls(x), html,
 * txt, md) by data, or either from S3 (`s3://` URLs); it cannot fetch http(s) URLs.
 */
const bedrockMedia: MediaRule = (part) => {
  if (!hasData(part) && !part.url.startsWith('s3://')) return 'Bedrock takes media by data or by s3:// URL only'
  const mimeType = part.mimeType?.toLowerCase()
  if (part.type === 'image')
    return mimeType && imageFormats[mimeType]
      ? undefined
      : 'Bedrock takes png, jpeg, gif or webp images (with their mimeType)'
  return mimeType && documentFormats[mimeType]
    ? undefined
    : 'Bedrock takes pdf, csv, doc, docx, xls, xlsx, html, txt or md documents'
}

function mediaBlock(part: MediaPart, index: number): ContentBlock.ImageMember | ContentBlock.DocumentMember {
  const source = hasData(part)
    ? { bytes: new Uint8Array(Buffer.from(part.data, 'base64')) }
    : { s3Location: { uri: part.url } }
  const mimeType = (part.mimeType ?? '').toLowerCase()
  if (part.type === 'image') return { image: { format: imageFormats[mimeType], source } }
  // Converse document names allow letters, digits, spaces, hyphens, parentheses and brackets only.
  const name =
    fileNameOf(part, index)
      .replace(/\.[a-z0-9]+$/i, '')
      .replace(/[^a-zA-Z0-9\s\-()[\]]/g, '-') || `document-${index + 1}`
  return { document: { format: documentFormats[mimeType], name, source } }
}

function toolResultBlock(message: ToolResultMessage): ContentBlock {
  const content: ToolResultContentBlock[] = toolContent(message, bedrockMedia).flatMap(
    (part, i): ToolResultContentBlock[] => {
      if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }]
      return [mediaBlock(part, i) as ToolResultContentBlock]
    },
  )
  // An error result must carry content; an empty success is sent as an empty text for symmetry.
  if (content.length === 0) content.push({ text: message.isError ? 'error' : '' })
  return {
    toolResult: { toolUseId: message.toolCallId, content, ...(message.isError ? { status: 'error' as const } : {}) },
  }
}

function assistantBlocks(message: AssistantMessage, providerName: string): ContentBlock[] {
  const own = message.provider === providerName
  const blocks: ContentBlock[] = []
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ text: part.text })
    } else if (part.type === 'thinking') {
      if (!own) continue
      if (part.redacted && part.signature)
        blocks.push({ reasoningContent: { redactedContent: Buffer.from(part.signature, 'base64') } })
      else if (part.signature)
        blocks.push({ reasoningContent: { reasoningText: { text: part.thinking, signature: part.signature } } })
    } else {
      blocks.push({ toolUse: { toolUseId: part.id, name: part.name, input: part.arguments as never } })
    }
  }
  return blocks
}

/** Whether the history holds tool blocks: Converse then needs a `toolConfig` on every request. */
export const hasToolHistory = (messages: readonly Message[]): boolean =>
  messages.some(
    (m) => m.role === 'toolResult' || (m.role === 'assistant' && m.content.some((c) => c.type === 'toolCall')),
  )
