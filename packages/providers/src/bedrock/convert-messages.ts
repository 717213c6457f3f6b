import type { ContentBlock, Message as BedrockMessage, ToolResultContentBlock } from '@aws-sdk/client-bedrock-runtime'
import type { AssistantMessage, ImageContent, Message, TextContent, ToolResultMessage } from '@nestor/core'
import { invalidOption } from '@nestor/core'

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
  const turns: { role: Role; content: ContentBlock[] }[] = []
  const push = (role: Role, content: ContentBlock[]) => {
    if (content.length === 0) return
    const last = turns.at(-1)
    if (last && last.role === role) last.content.push(...content)
    else turns.push({ role, content })
  }
  messages.forEach((message, index) => {
    if (message.role === 'user') {
      const parts = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
      push('user', parts.flatMap((part, i) => userBlock(part, `messages[${index}].content[${i}]`)))
    } else if (message.role === 'toolResult') push('user', [toolResultBlock(message, index)])
    else push('assistant', assistantBlocks(message, providerName))
  })
  return turns
}

function userBlock(part: TextContent | ImageContent, where: string): ContentBlock[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }]
  return [{ image: imageBlock(part, where) }]
}

const imageFormats = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/jpg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp' } as const

/** Converse takes image bytes (base64 on the wire, which the SDK does) in four formats. */
function imageBlock(part: ImageContent, where: string): { format: 'png' | 'jpeg' | 'gif' | 'webp'; source: { bytes: Uint8Array } } {
  const format = imageFormats[part.mimeType.toLowerCase() as keyof typeof imageFormats]
  if (!format) throw invalidOption(`${where} (image)`, 'a png, jpeg, gif or webp image for Bedrock', part.mimeType)
  return { format, source: { bytes: Buffer.from(part.data, 'base64') } }
}

function toolResultBlock(message: ToolResultMessage, index: number): ContentBlock {
  const content: ToolResultContentBlock[] = message.content.flatMap((part, i): ToolResultContentBlock[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }]
    return [{ image: imageBlock(part, `messages[${index}].content[${i}]`) }]
  })
  // An error result must carry content; an empty success is sent as an empty text for symmetry.
  if (content.length === 0) content.push({ text: message.isError ? 'error' : '' })
  return { toolResult: { toolUseId: message.toolCallId, content, ...(message.isError ? { status: 'error' as const } : {}) } }
}

function assistantBlocks(message: AssistantMessage, providerName: string): ContentBlock[] {
  const own = message.provider === providerName
  const blocks: ContentBlock[] = []
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ text: part.text })
    } else if (part.type === 'thinking') {
      if (!own) continue
      if (part.redacted && part.signature) blocks.push({ reasoningContent: { redactedContent: Buffer.from(part.signature, 'base64') } })
      else if (part.signature) blocks.push({ reasoningContent: { reasoningText: { text: part.thinking, signature: part.signature } } })
    } else {
      blocks.push({ toolUse: { toolUseId: part.id, name: part.name, input: part.arguments as never } })
    }
  }
  return blocks
}

/** Whether the history holds tool blocks: Converse then needs a `toolConfig` on every request. */
export const hasToolHistory = (messages: readonly Message[]): boolean =>
  messages.some((m) => m.role === 'toolResult' || (m.role === 'assistant' && m.content.some((c) => c.type === 'toolCall')))
