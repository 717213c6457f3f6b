import type { AssistantMessage, StopReason, ToolCall, Usage } from '@nestor/core'
import type { ModelEvent, NestorErrorLike } from '@nestor/core/integration-kit'
import { emptyUsage, generateId } from '@nestor/core/integration-kit'

type OpenCall = { id: string; name: string; json: string; providerData?: Record<string, unknown>; index: number }

/** A fresh, random, non-empty tool call id for providers that send none (ids leave the process). */
export const generateToolCallId = (): string => generateId('call')

/**
 * Builds one growing AssistantMessage from provider deltas and returns the ModelEvent for each
 * step, so every adapter streams the same event shapes. Tool calls are keyed by the provider's own
 * key (OpenAI's `index`, Anthropic's block index, …), never by array position.
 */
export class AssistantBuilder {
  readonly message: AssistantMessage
  private readonly open = new Map<string | number, OpenCall>()
  /** True once anything the user could see was produced; retries are only safe before that. */
  hasContent = false

  constructor(provider: string, model: string) {
    this.message = { role: 'assistant', content: [], stopReason: 'stop', usage: emptyUsage(), provider, model }
  }

  start(): ModelEvent {
    return { type: 'start', message: this.message }
  }

  text(delta: string): ModelEvent {
    this.hasContent = true
    const last = this.message.content.at(-1)
    if (last?.type === 'text') last.text += delta
    else this.message.content.push({ type: 'text', text: delta })
    return { type: 'text_delta', delta }
  }

  /** A refusal streamed by the model: kept on the message (typed output fails on it) and shown as text. */
  refusal(delta: string): ModelEvent {
    this.message.refusal = (this.message.refusal ?? '') + delta
    return this.text(delta)
  }

  thinking(delta: string, signature?: string): ModelEvent {
    this.hasContent = true
    const last = this.message.content.at(-1)
    if (last?.type === 'thinking' && last.signature === undefined) {
      last.thinking += delta
      if (signature !== undefined) last.signature = signature
    } else {
      const block: AssistantMessage['content'][number] = { type: 'thinking', thinking: delta }
      if (signature !== undefined) block.signature = signature
      this.message.content.push(block)
    }
    return { type: 'thinking_delta', delta }
  }

  /** Attaches a signature to the latest thinking block (Anthropic and Bedrock send it after the text). */
  thinkingSignature(signature: string): void {
    for (let i = this.message.content.length - 1; i >= 0; i--) {
      const block = this.message.content[i]
      if (block?.type === 'thinking') {
        block.signature = (block.signature ?? '') + signature
        return
      }
    }
    this.message.content.push({ type: 'thinking', thinking: '', signature })
  }

  /**
   * A thinking block of its own, never merged into the previous one: a block boundary the provider
   * drew, a signed part, or redacted reasoning the provider must get back verbatim (its opaque data
   * is the signature). Later `thinking` deltas continue it while it is unsigned.
   */
  thinkingBlock(thinking: string, options: { signature?: string; redacted?: boolean } = {}): ModelEvent | undefined {
    this.hasContent = true
    const block: AssistantMessage['content'][number] = { type: 'thinking', thinking }
    if (options.signature !== undefined) block.signature = options.signature
    if (options.redacted) block.redacted = true
    this.message.content.push(block)
    return thinking === '' ? undefined : { type: 'thinking_delta', delta: thinking }
  }

  toolCallStart(
    key: string | number,
    id: string | undefined,
    name: string,
    providerData?: Record<string, unknown>,
  ): ModelEvent {
    this.hasContent = true
    const call: OpenCall = { id: id || generateToolCallId(), name, json: '', index: this.message.content.length }
    if (providerData) call.providerData = providerData
    this.open.set(key, call)
    this.message.content.push({ type: 'toolCall', id: call.id, name, arguments: {} })
    return { type: 'toolcall_start', id: call.id, name }
  }

  isOpen(key: string | number): boolean {
    return this.open.has(key)
  }

  toolCallDelta(key: string | number, delta: string): ModelEvent | undefined {
    const call = this.open.get(key)
    if (!call) return undefined
    call.json += delta
    return { type: 'toolcall_delta', id: call.id, delta }
  }

  /**
   * Closes a call and parses its JSON. `args` given directly (Gemini sends objects) wins.
   * Malformed JSON leaves `arguments` empty and keeps the raw text in `invalidArguments`, so the
   * loop answers with an invalid-arguments error result instead of crashing.
   */
  toolCallEnd(key: string | number, args?: Record<string, unknown>): ModelEvent | undefined {
    const call = this.open.get(key)
    if (!call) return undefined
    this.open.delete(key)
    const parsed = args ? { value: args } : parseArguments(call.json)
    const toolCall: ToolCall = { type: 'toolCall', id: call.id, name: call.name, arguments: parsed.value }
    if (parsed.invalid !== undefined) toolCall.invalidArguments = parsed.invalid
    if (call.providerData) toolCall.providerData = call.providerData
    this.message.content[call.index] = toolCall
    return { type: 'toolcall_end', toolCall }
  }

  /** Closes every call still open (a stream that ended without explicit block stops). */
  closeAll(): ModelEvent[] {
    const events: ModelEvent[] = []
    for (const key of [...this.open.keys()]) {
      const event = this.toolCallEnd(key)
      if (event) events.push(event)
    }
    return events
  }

  setUsage(usage: Partial<Usage>): void {
    const u = this.message.usage
    Object.assign(u, usage)
    if (usage.total === undefined) u.total = u.input + u.output + u.cacheRead + u.cacheWrite
  }

  /**
   * Ends the message as failed: calls still open are closed with what arrived, the error's message
   * is kept on the message, and the terminal `error` event is returned.
   */
  fail(error: NestorErrorLike, stopReason: 'error' | 'aborted' = 'error'): ModelEvent {
    this.closeAll()
    this.message.stopReason = stopReason
    this.message.errorMessage = error.message
    return { type: 'error', message: this.message, error }
  }

  done(stopReason: StopReason): ModelEvent {
    // Calls still open are closed with what arrived; after a length cut the loop never runs them.
    this.closeAll()
    const hasCalls = this.message.content.some((c) => c.type === 'toolCall')
    this.message.stopReason = stopReason === 'stop' && hasCalls ? 'toolUse' : stopReason
    return { type: 'done', message: this.message }
  }
}

export function parseArguments(json: string): { value: Record<string, unknown>; invalid?: string } {
  if (json.trim() === '') return { value: {} }
  try {
    const value: unknown = JSON.parse(json)
    if (value && typeof value === 'object' && !Array.isArray(value)) return { value: value as Record<string, unknown> }
  } catch {
    // fall through: reported as invalid arguments
  }
  return { value: {}, invalid: json }
}
