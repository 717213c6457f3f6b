import type { FileContent, ImageContent, Message, ToolResultMessage } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { plainToolContent, type PlainToolContent } from '@nestor/core/integration-kit'

export type MediaPart = ImageContent | FileContent
/** Narrows a media part to its by-value form. */
export const hasData = <P extends MediaPart>(part: P): part is Extract<P, { data: string }> =>
  typeof part.data === 'string'

/** Why a provider cannot take this part here, or undefined when it can. */
export type MediaRule = (part: MediaPart, inToolResult: boolean) => string | undefined

/**
 * Checks every image and file part of the history against what the provider accepts, before any
 * request is made: an unsupported one fails `invalid_options` naming the part
 * (`messages[2].content[1]`), its kind and why. `from` skips messages checked by an earlier call.
 */
export function checkMedia(messages: readonly Message[], provider: string, rule: MediaRule, from = 0): void {
  // A message that passed a rule once is not walked again: histories are resent every turn.
  let passed = passedRule.get(rule)
  if (!passed) passedRule.set(rule, (passed = new WeakSet()))
  const ok = passed
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!
    if (message.role === 'assistant' || typeof message.content === 'string' || ok.has(message)) continue
    const parts = message.role === 'toolResult' ? toolContent(message, rule) : message.content
    parts.forEach((part, j) => {
      if (part.type === 'text') return
      const reason = rule(part, message.role === 'toolResult')
      if (reason === undefined) return
      const kind = `${part.type} by ${hasData(part) ? 'data' : 'URL'}${part.mimeType ? ` (${part.mimeType})` : ''}`
      throw new NestorError(
        'invalid_options',
        `${provider}: messages[${i}].content[${j}] is ${part.type === 'image' ? 'an' : 'a'} ${kind}: ${reason}`,
        { provider, retryable: false },
      )
    })
    ok.add(message)
  }
}

/**
 * A tool result's content as this provider takes it: audio and binary resources as file parts
 * where `rule` accepts such a file in a tool result, else as text naming them (see `plainToolContent`).
 */
export const toolContent = (message: ToolResultMessage, rule: MediaRule): PlainToolContent[] =>
  plainToolContent(message, (file) => rule(file, true) === undefined)

/** Messages that passed each rule (rules are module constants; the sets are weak). */
const passedRule = new WeakMap<MediaRule, WeakSet<Message>>()

export const dataUrlOf = (part: { data: string; mimeType: string }): string =>
  `data:${part.mimeType};base64,${part.data}`

/** The file name a provider that requires one gets when the part has none. */
export const fileNameOf = (part: FileContent, index = 0): string =>
  part.name ?? `file-${index + 1}${extensionOf(part.mimeType)}`

const extensions: Record<string, string> = {
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/markdown': '.md',
  'text/html': '.html',
}
const extensionOf = (mimeType: string): string => extensions[mimeType] ?? ''
