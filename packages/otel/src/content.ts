import type { AssistantMessage, Message, StopReason, ToolResultMessage } from '@nestor/core'

// Message content in the shape of the GenAI conventions' `gen_ai.input.messages` /
// `gen_ai.output.messages` (role + typed parts), serialised as JSON strings since span attributes
// cannot hold objects. Only called with `captureContent: true`, on events the runtime has
// already redacted with its secrets.

type Part =
  | { type: 'text'; content: string }
  | { type: 'reasoning'; content: string }
  | { type: 'blob'; modality: 'image'; mime_type?: string }
  | { type: 'uri'; modality: 'image'; mime_type?: string; uri: string }
  | { type: 'file'; mime_type: string; name?: string; uri?: string }
  | { type: 'tool_call'; id: string; name: string; arguments: unknown }
  | { type: 'tool_call_response'; id: string; response: unknown }

type ConventionMessage = { role: string; parts: Part[]; finish_reason?: string }

/** Nestor stop reasons as convention finish reasons (`toolUse` is `tool_call` there). */
export function finishReason(stopReason: StopReason): string {
  return stopReason === 'toolUse' ? 'tool_call' : stopReason
}

export function messagesJson(messages: readonly Message[]): string {
  return JSON.stringify(messages.map(toConvention))
}

export function outputJson(message: AssistantMessage): string {
  return JSON.stringify([{ ...toConvention(message), finish_reason: finishReason(message.stopReason) }])
}

/** A tool result's content as the model sees it: its text, images as a placeholder. */
export function toolResultText(result: ToolResultMessage): string {
  return result.content.map(placeholder).join('')
}

/** Text as is; media and resources as `[type what]`, never their bytes. */
function placeholder(c: ToolResultMessage['content'][number]): string {
  if (c.type === 'text') return c.text
  if (c.type === 'resource') return `[resource ${c.resource.uri}]`
  if (c.type === 'resource_link') return `[resource_link ${c.uri}]`
  if (c.type === 'audio') return `[audio ${c.mimeType}]`
  return `[${c.type} ${c.mimeType ?? c.url ?? ''}]`
}

function toConvention(message: Message): ConventionMessage {
  if (message.role === 'toolResult') {
    return {
      role: 'tool',
      parts: [{ type: 'tool_call_response', id: message.toolCallId, response: toolResultText(message) }],
    }
  }
  if (typeof message.content === 'string')
    return { role: message.role, parts: [{ type: 'text', content: message.content }] }
  const parts: Part[] = []
  for (const block of message.content) {
    if (block.type === 'text') parts.push({ type: 'text', content: block.text })
    else if (block.type === 'thinking') parts.push({ type: 'reasoning', content: block.thinking })
    // Media are named, never inlined: a span attribute is no place for base64 payloads.
    else if (block.type === 'image')
      parts.push(
        block.url
          ? { type: 'uri', modality: 'image', uri: block.url, ...(block.mimeType ? { mime_type: block.mimeType } : {}) }
          : { type: 'blob', modality: 'image', mime_type: block.mimeType },
      )
    else if (block.type === 'file')
      parts.push({
        type: 'file',
        mime_type: block.mimeType,
        ...(block.name ? { name: block.name } : {}),
        ...(block.url ? { uri: block.url } : {}),
      })
    else parts.push({ type: 'tool_call', id: block.id, name: block.name, arguments: block.arguments })
  }
  return { role: message.role, parts }
}
