import type { AssistantMessage, ImageContent, Message, ToolResultMessage, UserMessage } from '@nestor/core'
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions'
import { dataUrl, replayArguments, toolResultText } from './tool-result-text.js'

/**
 * Nestor history → Chat Completions messages. Assistant tool calls are replayed with their ids and
 * arguments as a JSON string; each tool result is its own `role: 'tool'` message. Chat tool
 * messages only take text, so images a tool returned follow the results as one user message.
 * Thinking is not replayed: Chat Completions has no field for it.
 */
export function toChatMessages(messages: Message[], system?: string): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = []
  if (system) out.push({ role: 'system', content: system })
  let pendingImages: { toolName: string; images: ImageContent[] }[] = []
  const flushImages = () => {
    if (pendingImages.length === 0) return
    const content: ChatCompletionContentPart[] = []
    for (const { toolName, images } of pendingImages) {
      content.push({ type: 'text', text: `Images returned by tool ${toolName}:` })
      for (const image of images) content.push({ type: 'image_url', image_url: { url: dataUrl(image) } })
    }
    out.push({ role: 'user', content })
    pendingImages = []
  }
  for (const message of messages) {
    if (message.role !== 'toolResult') flushImages()
    if (message.role === 'user') out.push(userMessage(message))
    else if (message.role === 'assistant') {
      const converted = assistantMessage(message)
      if (converted) out.push(converted)
    } else {
      out.push(toolMessage(message))
      const images = message.content.filter((part): part is ImageContent => part.type === 'image')
      if (images.length > 0) pendingImages.push({ toolName: message.toolName, images })
    }
  }
  flushImages()
  return out
}

function userMessage(message: UserMessage): ChatCompletionMessageParam {
  if (typeof message.content === 'string') return { role: 'user', content: message.content }
  const content: ChatCompletionContentPart[] = message.content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : { type: 'image_url', image_url: { url: dataUrl(part) } },
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
  return { role: 'tool', tool_call_id: message.toolCallId, content: toolResultText(message) }
}
