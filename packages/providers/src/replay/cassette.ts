import { sha256Hex } from './files/node.js'
import type { Message } from '@nestor/core'
import type { ModelEvent, ModelRequest } from '@nestor/core/integration-kit'
import { canonicalJson } from '@nestor/core/integration-kit'

export const CASSETTE_VERSION = 1

/**
 * What identifies a model call: everything that changes what the model sees. Message bodies keep
 * text, thinking text, tool call ids/names/arguments and tool results; usage, stop reasons and
 * opaque provider data (signatures, item ids) are left out — they do not change the question, and
 * live values (usage) would make every re-recording a different key.
 */
export type CanonicalRequest = {
  model: string
  system?: string
  messages: unknown[]
  tools: { name: string; description: string; parameters: unknown }[]
  toolChoice?: unknown
  parallelToolCalls?: boolean
  options?: Record<string, unknown>
  output?: ModelRequest['output']
  think?: boolean
}

/** One recorded call, pretty-printed at `${dir}/${key}.json`. */
export type Cassette = {
  version: typeof CASSETTE_VERSION
  key: string
  /** The canonical request, so a reader sees what was asked (redacted like the events). */
  request: CanonicalRequest
  /** The ModelEvent stream as JSON; errors as `{ name, code, message, status?, provider?, retryable? }`. */
  events: unknown[]
}

export function canonicalRequest(request: ModelRequest): CanonicalRequest {
  const out: CanonicalRequest = {
    model: request.model,
    messages: request.messages.map(canonicalMessage),
    tools: request.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  }
  if (request.system !== undefined) out.system = request.system
  if (request.toolChoice !== undefined) out.toolChoice = request.toolChoice
  if (request.parallelToolCalls !== undefined) out.parallelToolCalls = request.parallelToolCalls
  if (request.options !== undefined && Object.keys(request.options).length > 0) out.options = request.options
  // Typed output changes what the model is asked for: another schema is another recording.
  if (request.output !== undefined) out.output = request.output
  if (request.think !== undefined) out.think = request.think
  return out
}

function canonicalMessage(message: Message): unknown {
  if (message.role === 'user') return { role: 'user', content: message.content }
  if (message.role === 'toolResult') {
    return {
      role: 'toolResult',
      toolCallId: message.toolCallId,
      toolName: message.toolName,
      content: message.content,
      isError: message.isError,
    }
  }
  const content = message.content.map((block) => {
    if (block.type === 'text') return { type: 'text', text: block.text }
    if (block.type === 'thinking') return { type: 'thinking', thinking: block.thinking }
    const call: Record<string, unknown> = {
      type: 'toolCall',
      id: block.id,
      name: block.name,
      arguments: block.arguments,
    }
    if (block.invalidArguments !== undefined) call.invalidArguments = block.invalidArguments
    return call
  })
  return { role: 'assistant', content }
}

/** sha256 (hex) of the canonical JSON (sorted keys) of the canonical request. */
export const requestKey = (request: CanonicalRequest): string => sha256Hex(canonicalJson(request))

/** A ModelEvent as plain JSON, snapshotted now (providers mutate the message they stream). */
export function eventToJson(event: ModelEvent): unknown {
  if (event.type === 'error' || event.type === 'retry') {
    const { error, ...rest } = event
    return { ...(JSON.parse(JSON.stringify(rest)) as object), error: errorToJson(error) }
  }
  return JSON.parse(JSON.stringify(event)) as unknown
}

function errorToJson(
  error: Error & { code?: string; status?: number; provider?: string; retryable?: boolean },
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: error.name,
    code: error.code ?? 'provider_error',
    message: error.message,
  }
  if (error.status !== undefined) out.status = error.status
  if (error.provider !== undefined) out.provider = error.provider
  if (error.retryable !== undefined) out.retryable = error.retryable
  return out
}

/** Checks the shape of a parsed file; a wrong version or key is reported, never guessed around. */
export function checkCassette(value: unknown, key: string, file: string): Cassette | string {
  if (typeof value !== 'object' || value === null) return `cassette ${file} is not a JSON object`
  const c = value as Partial<Cassette>
  if (c.version !== CASSETTE_VERSION)
    return `cassette ${file} has version ${String(c.version)}; this replay reads version ${CASSETTE_VERSION}`
  if (c.key !== key) return `cassette ${file} holds key ${String(c.key)}, not ${key}`
  if (!Array.isArray(c.events) || c.events.length === 0) return `cassette ${file} has no events`
  return c as Cassette
}
