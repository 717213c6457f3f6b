import { base64Bytes } from '../platform/node.js'
import type { AssistantMessage, ImageContent, Message, ToolResultContent, ToolSpec } from '../contract/types.js'

// The token estimate: about 4 characters a token for text and JSON (within ~10 % of what providers
// count for what Nestor sends; what they add unseen, e.g. Anthropic's tool-use prompt, is not in it:
// docs/context.md "Measured"), a few tokens of framing per message, and images at their pixel cost.
// No tokenizer is loaded: the provider's reported count corrects the estimate each turn.

const CHARS_PER_TOKEN = 4
const MESSAGE_OVERHEAD = 4
const CALL_OVERHEAD = 8
/** What one image costs when its size cannot be read (a URL, an unknown format): a large one. */
const IMAGE_FALLBACK = 1600

const textTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN)

/** The estimated tokens of one message as a model reads it. */
export function messageTokens(message: Message): number {
  let tokens = MESSAGE_OVERHEAD
  if (typeof message.content === 'string') return tokens + textTokens(message.content)
  for (const part of message.content) {
    switch (part.type) {
      case 'text':
        tokens += textTokens(part.text)
        break
      case 'thinking':
        tokens += textTokens(part.thinking)
        break
      case 'toolCall':
        tokens +=
          CALL_OVERHEAD + textTokens(part.name) + textTokens(part.invalidArguments ?? JSON.stringify(part.arguments))
        break
      default:
        tokens += mediaTokens(part)
    }
  }
  return tokens
}

export const messagesTokens = (messages: readonly Message[]): number => {
  let tokens = 0
  for (const message of messages) tokens += messageTokens(message)
  return tokens
}

/** The system prompt and the tool specs: sent with every request. */
export const fixedTokens = (system: string | undefined, tools: readonly ToolSpec[]): number => {
  let tokens = system === undefined ? 0 : textTokens(system)
  for (const spec of tools)
    tokens +=
      CALL_OVERHEAD + textTokens(spec.name) + textTokens(spec.description) + textTokens(JSON.stringify(spec.parameters))
  return tokens
}

/** What the provider reported reading (and writing) for an assistant turn: its request plus itself. */
export const reportedTokens = (message: AssistantMessage): number => {
  const { input, output, cacheRead, cacheWrite } = message.usage
  return input + cacheRead + cacheWrite + output
}

function mediaTokens(part: Exclude<ToolResultContent, { type: 'text' }> | ImageContent): number {
  switch (part.type) {
    case 'image':
      return part.data === undefined ? IMAGE_FALLBACK : imageTokens(part.data)
    case 'file':
    case 'audio':
      // Documents and audio are billed by their content: their bytes are the honest upper bound.
      return part.data === undefined ? IMAGE_FALLBACK : textTokens(part.data)
    case 'resource':
      return textTokens(part.resource.text ?? part.resource.blob ?? '')
    case 'resource_link':
      return textTokens(part.uri) + textTokens(part.name)
  }
}

/**
 * An image by its pixels, as Anthropic counts them (width × height / 750 after fitting the long
 * edge into 1568 px; OpenAI's tiles land in the same range). The size is read from the PNG or
 * JPEG header; anything else counts as a large image.
 */
function imageTokens(base64: string): number {
  const size = pixelSize(base64Bytes(base64.slice(0, 65_536)))
  if (!size) return IMAGE_FALLBACK
  const scale = Math.min(1, 1568 / Math.max(size.width, size.height))
  return Math.ceil((size.width * scale * (size.height * scale)) / 750)
}

function pixelSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // PNG: the IHDR chunk follows the 8-byte signature.
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47)
    return { width: view.getUint32(16), height: view.getUint32(20) }
  // JPEG: walk the segments to the first start-of-frame marker.
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let i = 2; i + 9 < bytes.length;) {
      if (bytes[i] !== 0xff) return undefined
      const marker = bytes[i + 1] as number
      const length = view.getUint16(i + 2)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) }
      i += 2 + length
    }
  }
  return undefined
}

/**
 * The estimate the loop makes of a request with no reported usage to go on: the messages, the
 * system prompt and the tool specs (public: for custom strategies and for measuring it).
 */
export const estimateTokens = (
  messages: readonly Message[],
  request: { system?: string; tools?: readonly ToolSpec[] } = {},
): number => fixedTokens(request.system, request.tools ?? []) + messagesTokens(messages)
