import type Anthropic from '@anthropic-ai/sdk'
import type { AssistantMessage, FileContent, ImageContent, Message, TextContent, ToolResultMessage } from '@nestor/core'
import { checkMedia, hasData, toolContent, type MediaRule } from '../shared/media.js'
import { incrementalHistory } from '../shared/incremental-history.js'
import { perMessage } from '../shared/per-message.js'

type Block = Anthropic.ContentBlockParam
type Turn = { role: 'user' | 'assistant'; content: Block[] }

/**
 * Nestor history → Anthropic `messages`.
 *
 * - Tool results become `tool_result` blocks in a user turn; consecutive same-role turns are merged,
 *   so every result answering one assistant turn lands in ONE user message (the API requires it).
 * - Assistant thinking is replayed unmodified and in its original position (before the tool_use it
 *   led to): a changed or reordered signed block is a 400. Redacted thinking is stored as
 *   `ThinkingContent { redacted: true, signature: <data> }` and replayed as `redacted_thinking`.
 * - Thinking without a signature, or produced by another provider, cannot be verified by the API and
 *   is dropped rather than sent as fake reasoning.
 * - Empty text blocks are dropped (the API rejects them); an assistant turn left empty is skipped.
 *
 * `providerName` identifies messages this provider produced (their signatures are replayable).
 */
export function toAnthropicMessages(messages: readonly Message[], providerName: string): Anthropic.MessageParam[] {
  return anthropicHistory(messages, providerName)
}

const roleOf = (message: Message): Turn['role'] => (message.role === 'assistant' ? 'assistant' : 'user')

/**
 * Only the new tail of a resent history is converted. A group is a run of messages that may end in
 * one turn: same role, or around a message with no blocks (skipped, so its neighbours merge).
 */
const anthropicHistory = incrementalHistory<Anthropic.MessageParam>({
  check: (messages, from, providerName) => checkMedia(messages, providerName, anthropicMedia, from),
  joins: (previous, next, providerName) =>
    roleOf(previous) === roleOf(next) ||
    blocksOf(previous, providerName).length === 0 ||
    blocksOf(next, providerName).length === 0,
  convert: (messages, from, to, providerName, out) => {
    // Turns are new objects each time a group is converted: a turn handed out is never changed.
    let last: Turn | undefined
    for (let i = from; i < to; i++) {
      const blocks = blocksOf(messages[i]!, providerName)
      if (blocks.length === 0) continue
      const role = roleOf(messages[i]!)
      if (last && last.role === role) for (const block of blocks) last.content.push(block)
      else out.push((last = { role, content: [...blocks] }))
    }
  },
})

/** One message's blocks, converted once per message object (histories are resent every turn). */
const blocksOf = perMessage((message: Message, providerName: string): readonly Block[] =>
  message.role === 'user'
    ? userBlocks(message.content)
    : message.role === 'toolResult'
      ? [toolResultBlock(message)]
      : assistantBlocks(message, providerName),
)

const imageTypes = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp'])

/**
 * Images: jpeg, png, gif, webp by data, any image by URL. Files: PDF by data or URL (a `document`
 * block), plain text by data. The same kinds are accepted inside tool results.
 */
const anthropicMedia: MediaRule = (part) => {
  if (part.type === 'image')
    return hasData(part) && !imageTypes.has(part.mimeType) ? 'Anthropic takes jpeg, png, gif or webp images' : undefined
  if (part.mimeType === 'application/pdf') return undefined
  if (part.mimeType === 'text/plain' && hasData(part)) return undefined
  return 'Anthropic takes PDF files (by data or URL) and plain text files by data'
}

function userBlocks(content: string | (TextContent | ImageContent | FileContent)[]): Block[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }]
  return content.flatMap((part) => partBlock(part))
}

type PartBlock = Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam

function partBlock(part: TextContent | ImageContent | FileContent): PartBlock[] {
  if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }]
  if (part.type === 'image') {
    if (!hasData(part)) return [{ type: 'image', source: { type: 'url', url: part.url } }]
    return [
      {
        type: 'image',
        source: {
          type: 'base64',
          media_type: part.mimeType as Anthropic.Base64ImageSource['media_type'],
          data: part.data,
        },
      },
    ]
  }
  const title = part.name === undefined ? {} : { title: part.name }
  if (!hasData(part)) return [{ type: 'document', source: { type: 'url', url: part.url }, ...title }]
  if (part.mimeType === 'text/plain')
    return [
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: Buffer.from(part.data, 'base64').toString('utf8') },
        ...title,
      },
    ]
  return [{ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: part.data }, ...title }]
}

/** Text-only results go as a plain string (what the API docs and recordings use); images need blocks. */
function toolResultBlock(message: ToolResultMessage): Anthropic.ToolResultBlockParam {
  const block: Anthropic.ToolResultBlockParam = { type: 'tool_result', tool_use_id: message.toolCallId }
  const content = toolContent(message, anthropicMedia)
  const onlyText = content.every((part) => part.type === 'text')
  if (onlyText) {
    const text = content.map((part) => (part as TextContent).text).join('\n')
    if (text !== '') block.content = text
  } else {
    block.content = content.flatMap((part) => partBlock(part)) as Anthropic.ToolResultBlockParam['content']
  }
  if (message.isError) block.is_error = true
  return block
}

function assistantBlocks(message: AssistantMessage, providerName: string): Block[] {
  const own = message.provider === providerName
  const blocks: Block[] = []
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text })
    } else if (part.type === 'thinking') {
      if (!own || !part.signature) continue
      if (part.redacted) blocks.push({ type: 'redacted_thinking', data: part.signature })
      else blocks.push({ type: 'thinking', thinking: part.thinking, signature: part.signature })
    } else {
      blocks.push({ type: 'tool_use', id: part.id, name: part.name, input: part.arguments })
    }
  }
  return blocks
}
