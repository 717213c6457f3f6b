import type {
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
  SharedV3ProviderOptions,
} from '@ai-sdk/provider'
import type { AssistantMessage, FileContent, ImageContent, Message, TextContent, ToolResultMessage } from '@nestor/core'
import { hasData, toolContent, type MediaPart } from '../shared/media.js'

/** Where per-part provider metadata is kept on Nestor messages, to be handed back on replay. */
export const metadataKey = 'aiSdk'

/**
 * Nestor history → an AI SDK `LanguageModelV3Prompt`. The model's own provider package then maps
 * it to its wire format. Consecutive tool results become ONE `tool` message; images become `file`
 * parts (base64 data). Reasoning and tool calls produced through this adapter get their provider
 * metadata back as `providerOptions` (Anthropic signatures, Gemini thought signatures…);
 * reasoning from another provider is dropped, since no API can verify it.
 */
export function toAiSdkPrompt(
  system: string | undefined,
  messages: readonly Message[],
  providerName: string,
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = []
  if (system) prompt.push({ role: 'system', content: system })
  for (const message of messages) {
    if (message.role === 'user') {
      const parts =
        typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content
      prompt.push({ role: 'user', content: parts.map(userPart) })
    } else if (message.role === 'toolResult') {
      const part = {
        type: 'tool-result' as const,
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        output: toolOutput(message),
      }
      const last = prompt.at(-1)
      if (last?.role === 'tool') last.content.push(part)
      else prompt.push({ role: 'tool', content: [part] })
    } else prompt.push(assistantMessage(message, providerName))
  }
  return prompt
}

/**
 * Media become V3 `file` parts: base64 data as is, URLs as `URL` objects (the model downloads
 * the ones its provider cannot take by reference, per its `supportedUrls`). An image by URL
 * without a mimeType gets `image/*`, the spec's wildcard.
 */
function userPart(
  part: TextContent | ImageContent | FileContent,
): Extract<LanguageModelV3Message, { role: 'user' }>['content'][number] {
  if (part.type === 'text') return { type: 'text', text: part.text }
  const name = part.type === 'file' && part.name !== undefined ? { filename: part.name } : {}
  if (hasData(part)) return { type: 'file', mediaType: part.mimeType, data: part.data, ...name }
  return { type: 'file', mediaType: part.mimeType ?? 'image/*', data: new URL(part.url), ...name }
}

function mediaOutput(part: MediaPart): Extract<LanguageModelV3ToolResultOutput, { type: 'content' }>['value'][number] {
  if (hasData(part))
    return {
      type: 'file-data',
      data: part.data,
      mediaType: part.mimeType,
      ...(part.type === 'file' && part.name !== undefined ? { filename: part.name } : {}),
    }
  return { type: 'file-url', url: part.url, ...(part.mimeType === undefined ? {} : { mediaType: part.mimeType }) }
}

/** Any file goes on as `file-data` with its media type: the model's own provider package decides. */
const anyFile = (): undefined => undefined

function toolOutput(message: ToolResultMessage): LanguageModelV3ToolResultOutput {
  const content = toolContent(message, anyFile)
  const onlyText = content.every((part) => part.type === 'text')
  if (onlyText) {
    const value = content.map((part) => (part as TextContent).text).join('\n')
    return message.isError ? { type: 'error-text', value } : { type: 'text', value }
  }
  return {
    type: 'content',
    value: content.map((part) =>
      part.type === 'text' ? { type: 'text' as const, text: part.text } : mediaOutput(part),
    ),
  }
}

function assistantMessage(message: AssistantMessage, providerName: string): LanguageModelV3Message {
  const own = message.provider === providerName
  const content: Extract<LanguageModelV3Message, { role: 'assistant' }>['content'] = []
  let thinkingIndex = 0
  const reasoningMetadata = own
    ? (message.providerData?.[metadataKey] as { reasoning?: (SharedV3ProviderOptions | undefined)[] } | undefined)
        ?.reasoning
    : undefined
  for (const part of message.content) {
    if (part.type === 'text') {
      if (part.text !== '') content.push({ type: 'text', text: part.text })
    } else if (part.type === 'thinking') {
      const metadata = reasoningMetadata?.[thinkingIndex++]
      if (own)
        content.push({ type: 'reasoning', text: part.thinking, ...(metadata ? { providerOptions: metadata } : {}) })
    } else {
      const metadata = own ? (part.providerData?.[metadataKey] as SharedV3ProviderOptions | undefined) : undefined
      content.push({
        type: 'tool-call',
        toolCallId: part.id,
        toolName: part.name,
        input: part.arguments,
        ...(metadata ? { providerOptions: metadata } : {}),
      })
    }
  }
  return { role: 'assistant', content }
}
