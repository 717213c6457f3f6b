import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from '@nestor/core'
import type {
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
} from 'openai/resources/responses/responses'
import type { ResponsesProviderData } from './responses-stream.js'
import { incrementalHistory } from '../shared/incremental-history.js'
import { perMessage } from '../shared/per-message.js'
import {
  checkMedia,
  dataUrlOf,
  fileNameOf,
  hasData,
  toolContent,
  type MediaPart,
  type MediaRule,
} from '../shared/media.js'
import { replayArguments, toolResultText } from './tool-result-text.js'

/** Responses takes images and files by data or URL, in messages and in function outputs alike. */
function mediaInput(part: MediaPart, index: number): ResponseInputMessageContentList[number] {
  if (part.type === 'image')
    return { type: 'input_image', image_url: hasData(part) ? dataUrlOf(part) : part.url, detail: 'auto' }
  if (hasData(part)) return { type: 'input_file', file_data: dataUrlOf(part), filename: fileNameOf(part, index) }
  return { type: 'input_file', file_url: part.url }
}

/**
 * Nestor history → Responses input items. A tool call becomes a `function_call` item whose
 * `call_id` is the ToolCall id (the model's `call_…`, never the item id); its result a
 * `function_call_output` with the same `call_id`. Reasoning items this provider produced are put
 * back where they stood among the message's blocks, before the calls they led to. Item ids and
 * reasoning are only replayed to the provider that made them (`provider` name match): another
 * backend would not know them.
 */
export function toResponsesInput(messages: Message[], provider: string): ResponseInputItem[] {
  return responsesHistory(messages, provider)
}

/** Only the new tail of a resent history is converted. Each message is a group of its own. */
const responsesHistory = incrementalHistory<ResponseInputItem>({
  check: (messages, from, provider) => checkMedia(messages, provider, anyMedia, from),
  joins: () => false,
  convert: (messages, from, to, provider, out) => {
    for (let i = from; i < to; i++) {
      const message = messages[i]!
      if (message.role === 'user') out.push(userItem(message))
      else if (message.role === 'assistant') {
        // Only the provider that made a message gets its item ids and reasoning back.
        for (const item of assistantItemsOf(message, message.provider === provider ? 'own' : 'other')) out.push(item)
      } else out.push(toolOutputItem(message))
    }
  },
})

const anyMedia = (): undefined => undefined
/** Audio or a binary resource from a tool goes as an `input_file` only when it is a PDF (what `input_file` reads). */
const toolFiles: MediaRule = (part) =>
  part.type === 'file' && part.mimeType !== 'application/pdf' ? 'input_file reads PDF files' : undefined

// Each message is converted once per message object (histories are resent every turn).
const userItem = perMessage((message: UserMessage) => userItemOf(message))
const toolOutputItem = perMessage((message: ToolResultMessage) => toolOutputItemOf(message))
const assistantItemsOf = perMessage((message: AssistantMessage, variant: string) =>
  assistantItems(message, variant === 'own'),
)

function userItemOf(message: UserMessage): ResponseInputItem {
  if (typeof message.content === 'string') return { role: 'user', content: message.content }
  const content: ResponseInputMessageContentList = message.content.map((part, i) =>
    part.type === 'text' ? { type: 'input_text', text: part.text } : mediaInput(part, i),
  )
  return { role: 'user', content }
}

function assistantItems(message: AssistantMessage, own: boolean): ResponseInputItem[] {
  const data = own ? (message.providerData?.openaiResponses as ResponsesProviderData | undefined) : undefined
  const reasoning = [...(data?.reasoning ?? [])].sort((a, b) => a.position - b.position)
  const out: ResponseInputItem[] = []
  let text = ''
  const flushText = () => {
    if (text !== '') out.push({ role: 'assistant', content: text })
    text = ''
  }
  const flushReasoning = (position: number) => {
    while (reasoning.length > 0 && reasoning[0]!.position <= position) {
      flushText()
      out.push(reasoning.shift()!.item)
    }
  }
  message.content.forEach((block, position) => {
    flushReasoning(position)
    if (block.type === 'text') text += block.text
    else if (block.type === 'toolCall') {
      flushText()
      const itemId = own ? block.providerData?.itemId : undefined
      out.push({
        type: 'function_call',
        call_id: block.id,
        name: block.name,
        arguments: replayArguments(block),
        ...(typeof itemId === 'string' ? { id: itemId } : {}),
      })
    }
    // Thinking blocks are summaries of reasoning items, which are replayed whole instead.
  })
  flushReasoning(Number.POSITIVE_INFINITY)
  flushText()
  return out
}

function toolOutputItemOf(message: ToolResultMessage): ResponseInputItem {
  const content = toolContent(message, toolFiles)
  const media = content.filter((part): part is MediaPart => part.type !== 'text')
  if (media.length === 0)
    return { type: 'function_call_output', call_id: message.toolCallId, output: toolResultText(message, content) }
  const output: ResponseFunctionCallOutputItemList = [{ type: 'input_text', text: toolResultText(message, content) }]
  media.forEach((part, i) => output.push(mediaInput(part, i) as ResponseFunctionCallOutputItemList[number]))
  return { type: 'function_call_output', call_id: message.toolCallId, output }
}
