import type { AssistantMessage, Message, TextContent, ToolResultMessage, UserMessage } from '@nestor/core'
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'
import {
  checkMedia,
  dataUrlOf,
  fileNameOf,
  hasData,
  toolContent,
  type MediaPart,
  type MediaRule,
} from '../shared/media.js'
import { incrementalHistory } from '../shared/incremental-history.js'
import { perMessage } from '../shared/per-message.js'
import { replayArguments, toolResultText } from './tool-result-text.js'

/** Chat Completions: images by data or URL; files only as PDF data (`file.file_data`). */
const chatMedia: MediaRule = (part) => {
  if (part.type === 'image') return undefined
  if (!hasData(part)) return 'Chat Completions takes files only by data (use api: "responses" for file URLs)'
  return part.mimeType === 'application/pdf' ? undefined : 'Chat Completions takes PDF files only'
}

function mediaPart(part: MediaPart, index: number): ChatCompletionContentPart {
  if (part.type === 'image')
    return { type: 'image_url', image_url: { url: hasData(part) ? dataUrlOf(part) : part.url } }
  if (!hasData(part)) throw new Error('unreachable: file URLs are rejected by chatMedia')
  return { type: 'file', file: { file_data: dataUrlOf(part), filename: fileNameOf(part, index) } }
}

/**
 * Nestor history → Chat Completions messages. Assistant tool calls are replayed with their ids and
 * arguments as a JSON string; each tool result is its own `role: 'tool'` message. Chat tool
 * messages only take text, so images a tool returned follow the results as one user message.
 * Thinking is not replayed: Chat Completions has no field for it.
 */
export function toChatMessages(
  messages: Message[],
  system?: string,
  provider = 'openai',
): ChatCompletionMessageParam[] {
  const out = chatHistory(messages, provider)
  if (system) out.unshift({ role: 'system', content: system })
  return out
}

/** Only the new tail of a resent history is converted; the system prompt is added per call. */
const chatHistory = incrementalHistory<ChatCompletionMessageParam>({
  check: (messages, from, provider) => checkMedia(messages, provider, chatMedia, from),
  // A run of tool results is one group: the images they returned follow the whole run.
  joins: (previous, next) => previous.role === 'toolResult' && next.role === 'toolResult',
  convert: (messages, from, to, _provider, out) => {
    const returned: { toolName: string; images: MediaPart[] }[] = []
    for (let i = from; i < to; i++) {
      const message = messages[i]!
      const converted = convertOne(message)
      if (converted) out.push(converted)
      if (message.role === 'toolResult') {
        const images = mediaOf(message)
        if (images.length > 0) returned.push({ toolName: message.toolName, images })
      }
    }
    if (returned.length > 0) out.push(imagesMessage(returned))
  },
})

function imagesMessage(returned: { toolName: string; images: MediaPart[] }[]): ChatCompletionMessageParam {
  const content: ChatCompletionContentPart[] = []
  for (const { toolName, images } of returned) {
    content.push({
      type: 'text',
      text: `${images.every((p) => p.type === 'image') ? 'Images' : 'Files'} returned by tool ${toolName}:`,
    })
    images.forEach((part, i) => content.push(mediaPart(part, i)))
  }
  return { role: 'user', content }
}

/** One message's Chat form, converted once per message object (histories are resent every turn). */
const convertOne = perMessage((message: Message): ChatCompletionMessageParam | undefined =>
  message.role === 'user'
    ? userMessage(message)
    : message.role === 'assistant'
      ? assistantMessage(message)
      : toolMessage(message),
)

const noMedia: MediaPart[] = []
const mediaOf = perMessage((message: ToolResultMessage): MediaPart[] => {
  const media = toolContent(message, chatMedia).filter((part): part is MediaPart => part.type !== 'text')
  return media.length > 0 ? media : noMedia
})

function userMessage(message: UserMessage): ChatCompletionMessageParam {
  if (typeof message.content === 'string') return { role: 'user', content: message.content }
  const content: ChatCompletionContentPart[] = message.content.map((part, i) =>
    part.type === 'text' ? { type: 'text', text: (part as TextContent).text } : mediaPart(part, i),
  )
  return { role: 'user', content }
}

/** Undefined for an assistant message with nothing to replay (the API rejects an empty one). */
function assistantMessage(message: AssistantMessage): ChatCompletionAssistantMessageParam | undefined {
  const text = message.content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('')
  const calls = message.content.filter((part) => part.type === 'toolCall')
  if (text === '' && calls.length === 0) return undefined
  const out: ChatCompletionAssistantMessageParam = { role: 'assistant', content: text === '' ? null : text }
  if (calls.length > 0) {
    out.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: replayArguments(call) },
    }))
  }
  return out
}

function toolMessage(message: ToolResultMessage): ChatCompletionMessageParam {
  return {
    role: 'tool',
    tool_call_id: message.toolCallId,
    content: toolResultText(message, toolContent(message, chatMedia)),
  }
}
