import type { AssistantMessage, FileContent, ImageContent, Message, TextContent, ToolResultMessage } from '@nestor/core'
import { checkMedia, hasData, toolContent, type MediaPart, type MediaRule } from '../shared/media.js'
import { incrementalHistory } from '../shared/incremental-history.js'
import { perMessage } from '../shared/per-message.js'
import { textSignatures } from './signatures.js'
import type { GeminiContent, GeminiPart } from './wire-types.js'

/**
 * Converts Nestor history to Gemini `contents`.
 * - assistant → role `model`; tool calls become `functionCall {name, args, id}` parts carrying the
 *   exact `thoughtSignature` string they arrived with (Gemini 3 answers 400 without it).
 * - consecutive tool results → ONE content of role `user` holding every `functionResponse` of the
 *   turn, in order. `user` is what the live API was recorded accepting; the SDK's `function` role
 *   exists only for ChatSession's validator, which generateContentStream does not run.
 * - images → `inlineData`.
 * `providerName` decides whether thinking signatures are ours: another provider's signatures are
 * meaningless to Gemini, so foreign thinking blocks are dropped.
 *
 * The array is new on each call; the contents in it are reused by later calls for the same history
 * (see `incrementalHistory`): copy one before changing it.
 */
export function toGeminiContents(messages: readonly Message[], providerName: string): GeminiContent[] {
  return geminiHistory(messages, providerName)
}

/** Only the new tail of a resent history is converted. A run of tool results is one group. */
const geminiHistory = incrementalHistory<GeminiContent>({
  check: (messages, from, providerName) => checkMedia(messages, providerName, geminiMedia, from),
  joins: (previous, next) => previous.role === 'toolResult' && next.role === 'toolResult',
  convert: (messages, from, to, providerName, out) => {
    const first = messages[from]!
    // Parts are memoised per message (histories are resent every turn); each content gets its own array.
    if (first.role === 'user') out.push({ role: 'user', parts: [...userParts(first)] })
    else if (first.role === 'assistant') {
      const parts = modelPartsOf(first, providerName)
      if (parts.length > 0) out.push({ role: 'model', parts: [...parts] })
    } else out.push({ role: 'user', parts: functionResponseParts(messages.slice(from, to) as ToolResultMessage[]) })
  },
})

const userParts = perMessage((message: Message & { role: 'user' }): readonly GeminiPart[] =>
  typeof message.content === 'string' ? [{ text: message.content }] : message.content.map(userPart),
)
const modelPartsOf = perMessage(modelParts)
const responseOf = perMessage((result: ToolResultMessage) => functionResponse(result))

/** Gemini takes any media by data (`inlineData`); by URL (`fileData`) only with a mimeType. */
const geminiMedia: MediaRule = (part) =>
  hasData(part) || part.mimeType ? undefined : 'Gemini needs a mimeType for a part by URL (fileData.mimeType)'

/** What Gemini reads as inlineData from a tool: an unknown binary (octet-stream) is named in text instead. */
const geminiToolFile: MediaRule = (part) =>
  /^(audio|image|video|text)\/|^application\/pdf$/.test(part.mimeType ?? '')
    ? undefined
    : 'not a media type Gemini reads'

function mediaPart(part: MediaPart): GeminiPart {
  if (hasData(part)) return { inlineData: { mimeType: part.mimeType, data: part.data } }
  return { fileData: { mimeType: part.mimeType ?? '', fileUri: part.url } }
}

function userPart(part: TextContent | ImageContent | FileContent): GeminiPart {
  return part.type === 'text' ? { text: part.text } : mediaPart(part)
}

function modelParts(message: AssistantMessage, providerName: string): GeminiPart[] {
  const signatures = textSignatures(message)
  const ours = message.provider === providerName
  const parts: GeminiPart[] = []
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      const signature = signatures[String(index)]
      if (block.text === '' && signature === undefined) return
      parts.push(signature === undefined ? { text: block.text } : { text: block.text, thoughtSignature: signature })
    } else if (block.type === 'thinking') {
      // Unsigned thought summaries carry no state the model needs back; signed ones are replayed
      // as thought parts so the signature stays on the part it came on.
      if (!ours || block.signature === undefined || block.redacted) return
      parts.push({ text: block.thinking, thought: true, thoughtSignature: block.signature })
    } else {
      const part: GeminiPart = { functionCall: { name: block.name, args: block.arguments, id: block.id } }
      const signature = block.providerData?.thoughtSignature
      if (typeof signature === 'string') part.thoughtSignature = signature
      parts.push(part)
    }
  })
  return parts
}

function functionResponse(result: ToolResultMessage): { part: GeminiPart; images: GeminiPart[] } {
  const content = toolContent(result, geminiToolFile)
  const text = content
    .filter((c): c is TextContent => c.type === 'text')
    .map((c) => c.text)
    .join('\n')
  // `response` must be a JSON object: the text goes under `result`, or `error` for a failure.
  const response = result.isError ? { error: text } : { result: text }
  const images: GeminiPart[] = []
  for (const c of content) if (c.type !== 'text') images.push(mediaPart(c))
  return { part: { functionResponse: { name: result.toolName, id: result.toolCallId, response } }, images }
}

function functionResponseParts(results: ToolResultMessage[]): GeminiPart[] {
  const parts: GeminiPart[] = []
  const images: GeminiPart[] = []
  for (const result of results) {
    const converted = responseOf(result)
    parts.push(converted.part)
    for (const image of converted.images) images.push(image)
  }
  // functionResponse in v1beta carries no images; they follow the responses in the same turn.
  return [...parts, ...images]
}
