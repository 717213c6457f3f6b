import type { Message, ToolResultMessage } from '@nestor/core'

/** A part of a UI message as the AI SDK's `useChat` renders it. */
export type StoredUIPart =
  | { type: 'text'; text: string }
  | {
      type: `tool-${string}`
      toolCallId: string
      state: 'output-available' | 'output-error'
      input: unknown
      output?: unknown
      errorText?: string
    }

/** A stored conversation's message as an AI SDK UI message (`useChat({ messages })` after a reload). */
export type StoredUIMessage = { id: string; role: 'user' | 'assistant'; parts: StoredUIPart[] }

const textOf = (content: Message['content']): string =>
  typeof content === 'string' ? content : content.map((c) => (c.type === 'text' ? c.text : '')).join('')

/**
 * A session's messages as UI messages: each user message one, each assistant turn one with its
 * text and its tool calls, every call with the output of its result (results are not messages of
 * their own in a UI). Ids are the message's place in the chat, stable across reloads.
 */
export function toStoredUIMessages(messages: readonly Message[]): StoredUIMessage[] {
  const results = new Map<string, ToolResultMessage>()
  for (const m of messages) if (m.role === 'toolResult') results.set(m.toolCallId, m)
  const out: StoredUIMessage[] = []
  for (const [index, message] of messages.entries()) {
    const id = `m${index}`
    if (message.role === 'user')
      out.push({ id, role: 'user', parts: [{ type: 'text', text: textOf(message.content) }] })
    if (message.role !== 'assistant') continue
    const parts: StoredUIPart[] = []
    for (const block of message.content) {
      if (block.type === 'text' && block.text !== '') parts.push({ type: 'text', text: block.text })
      if (block.type !== 'toolCall') continue
      const result = results.get(block.id)
      const output = result ? textOf(result.content as Message['content']) : ''
      parts.push(
        result?.isError
          ? {
              type: `tool-${block.name}`,
              toolCallId: block.id,
              state: 'output-error',
              input: block.arguments,
              errorText: output,
            }
          : {
              type: `tool-${block.name}`,
              toolCallId: block.id,
              state: 'output-available',
              input: block.arguments,
              output,
            },
      )
    }
    out.push({ id, role: 'assistant', parts })
  }
  return out
}
