import type { AssistantMessage, EventOf, Runtime, Usage } from '@nestor/core'
import type { AgentEventType } from '@nestor/core/integration-kit'
import {
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api'
import * as conv from './conventions.js'
import { finishReason, messagesJson, outputJson, toolResultText } from './content.js'
import { passSpan } from './handoff-span.js'
import { approvalEvents, errorType, guardrailEvent, inputEvents, retryEvent } from './span-events.js'

export type InstrumentOptions = {
  /** Default: `trace.getTracer('@nestor/otel')` from the global tracer provider. */
  tracer?: Tracer
  /**
   * Record messages, tool arguments and tool results on spans, and error messages in span
   * statuses and events. Default false: they may hold personal data, so spans then carry codes
   * only (the receipt status, the error code). What is recorded comes from events, so the
   * runtime's secrets are already redacted.
   */
  captureContent?: boolean
  /**
   * `gen_ai.agent.name` of root execs (a nested exec is named after the tool that opened it, such
   * as an agent's `asTool()` name). Default: none.
   */
  agentName?: string
}

/** Only `on` is used: any runtime, or a wrapper exposing the same subscription. */
export type Instrumentable = Pick<Runtime, 'on'>

type ToolSpan = { span: Span; name: string }

/** Where tool calls hang: an exec's span, or the caller's context for a batch (no exec around it). */
type CallOwner = { ctx: Context; tools: Map<string, ToolSpan> }

type OpenExec = CallOwner & {
  span: Span
  /** Where the exec's span hangs: a handoff's span for the next agent hangs there too. */
  parent: Context
  chat: Span | undefined
  /** The provider the last reply named: the next turn's chat span starts with it. */
  provider: string | undefined
  /** Whether the exec span has its request model yet (set from the first turn). */
  named: boolean
}

/**
 * Traces every exec of `runtime` as OpenTelemetry spans following the GenAI semantic conventions:
 * `invoke_agent` per exec, `chat {model}` per model call, `execute_tool {tool}` per tool call. A
 * nested exec's span is a child of the tool call that opened it; a root exec's span is a child of
 * the context active where `exec()` was called (a request span of your HTTP server, say). Calls of
 * a batch (`runBatch`, and so every call `serveMcp` serves) are `execute_tool` spans of their
 * own in the caller's context. Returns the unsubscribe function, which also ends any span still open.
 */
export function instrument(runtime: Instrumentable, options: InstrumentOptions = {}): () => void {
  const tracer = options.tracer ?? trace.getTracer('@nestor/otel')
  const spans = new ExecSpans(tracer, options.captureContent === true, options.agentName)
  // Subscribing per type (no '*') keeps the hot events (message_delta, tool_update) listener-free,
  // so the runtime skips dispatching them at all.
  const on = <T extends AgentEventType>(type: T, handler: (event: EventOf<T>) => void) =>
    runtime.on(type, handler as Parameters<Runtime['on']>[1])
  const offs = [
    on('agent_start', (e) => spans.agentStart(e)),
    on('turn_start', (e) => spans.turnStart(e)),
    on('retry', (e) => spans.retry(e)),
    on('message_end', (e) => spans.messageEnd(e)),
    on('tool_start', (e) => spans.toolStart(e)),
    on('tool_end', (e) => spans.toolEnd(e)),
    on('approval_required', (e) => spans.approvalRequired(e)),
    on('input_required', (e) => spans.inputRequired(e)),
    on('handoff', (e) => spans.handoff(e)),
    on('guardrail', (e) => spans.guardrail(e)),
    on('agent_end', (e) => spans.agentEnd(e)),
  ]
  return () => {
    for (const off of offs) off()
    spans.endAll()
  }
}

/**
 * Open execs and batches of every instrumented runtime, for parent lookups only: a nested exec on
 * another runtime (an agent with its own) still finds the tool span that opened it, if both are
 * instrumented.
 */
const anyRuntime = new Map<string, CallOwner>()

/** The open spans of every running exec, keyed by execId, driven by the exec's events. */
class ExecSpans {
  private readonly open = new Map<string, OpenExec>()
  /** Batches with a call in flight, keyed by the batch's execId. */
  private readonly batches = new Map<string, CallOwner>()

  constructor(
    private readonly tracer: Tracer,
    private readonly captureContent: boolean,
    private readonly agentName: string | undefined,
  ) {}

  agentStart(e: EventOf<'agent_start'>): void {
    const { ctx: parent, toolName } = this.parentOf(e)
    const name = e.depth === 0 ? this.agentName : toolName
    // Every attribute known at the start goes into startSpan: one object, no spreads, no later calls.
    const attributes: Attributes = {
      [conv.ATTR_GEN_AI_OPERATION_NAME]: conv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT,
      [conv.ATTR_NESTOR_EXEC_ID]: e.execId,
      [conv.ATTR_NESTOR_DEPTH]: e.depth,
    }
    if (name !== undefined) attributes[conv.ATTR_GEN_AI_AGENT_NAME] = name
    if (e.parentExecId !== undefined) attributes[conv.ATTR_NESTOR_PARENT_EXEC_ID] = e.parentExecId
    if (this.captureContent && e.input.length > 0) attributes[conv.ATTR_GEN_AI_INPUT_MESSAGES] = messagesJson(e.input)
    const span = this.tracer.startSpan(
      name === undefined
        ? conv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT
        : `${conv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT} ${name}`,
      { kind: SpanKind.INTERNAL, attributes },
      parent,
    )
    const exec: OpenExec = {
      span,
      parent,
      ctx: trace.setSpan(parent, span),
      chat: undefined,
      tools: new Map(),
      provider: undefined,
      named: false,
    }
    this.open.set(e.execId, exec)
    anyRuntime.set(e.execId, exec)
  }

  /**
   * A nested exec hangs under the tool call whose body opened it (its parent exec if that call is
   * not traced). Otherwise the context active right now: agent_start is emitted synchronously inside
   * `exec()`, so this is the caller's context.
   */
  private parentOf(e: EventOf<'agent_start'>): { ctx: Context; toolName?: string } {
    const id = e.parentExecId
    const parent = id !== undefined ? (this.open.get(id) ?? this.batches.get(id) ?? anyRuntime.get(id)) : undefined
    if (!parent) return { ctx: context.active() }
    const tool = e.parentToolCallId !== undefined ? parent.tools.get(e.parentToolCallId) : undefined
    // The tool's context is built only here: most tool bodies open no exec.
    return tool ? { ctx: trace.setSpan(parent.ctx, tool.span), toolName: tool.name } : { ctx: parent.ctx }
  }

  /**
   * The chat span starts with the model the request names (samplers read attributes at start),
   * and the provider the last reply named (the usual turn has the same one).
   */
  turnStart(e: EventOf<'turn_start'>): void {
    const exec = this.open.get(e.execId)
    if (!exec) return
    exec.chat?.end()
    const attributes: Attributes = {
      [conv.ATTR_GEN_AI_OPERATION_NAME]: conv.GEN_AI_OPERATION_NAME_VALUE_CHAT,
      [conv.ATTR_GEN_AI_REQUEST_MODEL]: e.model,
      [conv.ATTR_NESTOR_ITERATION]: e.iteration,
    }
    if (exec.provider !== undefined) attributes[conv.ATTR_GEN_AI_PROVIDER_NAME] = exec.provider
    if (!exec.named) {
      exec.named = true
      exec.span.setAttribute(conv.ATTR_GEN_AI_REQUEST_MODEL, e.model)
    }
    exec.chat = this.tracer.startSpan(
      `${conv.GEN_AI_OPERATION_NAME_VALUE_CHAT} ${e.model}`,
      { kind: SpanKind.CLIENT, attributes },
      exec.ctx,
    )
  }

  retry(e: EventOf<'retry'>): void {
    const exec = this.open.get(e.execId)
    if (exec) retryEvent(exec, e, this.captureContent)
  }

  messageEnd(e: EventOf<'message_end'>): void {
    const message = e.message
    if (message.role !== 'assistant') return
    const exec = this.open.get(e.execId)
    const chat = exec?.chat
    if (!exec || !chat) return
    this.nameProvider(exec, chat, message)
    chat.setAttribute(conv.ATTR_GEN_AI_RESPONSE_MODEL, message.model)
    chat.setAttribute(conv.ATTR_GEN_AI_RESPONSE_FINISH_REASONS, [finishReason(message.stopReason)])
    chat.setAttribute(conv.ATTR_GEN_AI_USAGE_INPUT_TOKENS, message.usage.input)
    chat.setAttribute(conv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, message.usage.output)
    setCacheAndCost(chat, message.usage)
    if (message.responseId !== undefined) chat.setAttribute(conv.ATTR_GEN_AI_RESPONSE_ID, message.responseId)
    if (e.replayed) chat.setAttribute(conv.ATTR_NESTOR_REPLAYED, true)
    if (e.edited) chat.setAttribute(conv.ATTR_NESTOR_EDITED, true)
    if (this.captureContent) chat.setAttribute(conv.ATTR_GEN_AI_OUTPUT_MESSAGES, outputJson(message))
    if (message.stopReason === 'error' || message.stopReason === 'aborted') {
      const type = message.stopReason === 'aborted' ? 'aborted' : 'provider_error'
      chat.setAttribute(conv.ATTR_ERROR_TYPE, type)
      chat.setStatus({ code: SpanStatusCode.ERROR, message: this.statusText(type, message.errorMessage) })
    }
    chat.end()
    exec.chat = undefined
  }

  /** The provider the reply came from, on its chat span and, the first time, on the exec's. */
  private nameProvider(exec: OpenExec, chat: Span, message: AssistantMessage): void {
    const provider = providerName(message.provider)
    if (provider === exec.provider) return
    if (exec.provider === undefined) exec.span.setAttribute(conv.ATTR_GEN_AI_PROVIDER_NAME, provider)
    exec.provider = provider
    chat.setAttribute(conv.ATTR_GEN_AI_PROVIDER_NAME, provider)
  }

  toolStart(e: EventOf<'tool_start'>): void {
    const owner = this.ownerOf(e)
    if (!owner) return
    const span = this.startToolSpan(owner, e.toolCallId, e.toolName)
    if (this.captureContent) span.setAttribute(conv.ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, JSON.stringify(e.args))
    owner.tools.set(e.toolCallId, { span, name: e.toolName })
  }

  toolEnd(e: EventOf<'tool_end'>): void {
    const owner = this.ownerOf(e)
    if (!owner) return
    // Calls answered without running (skipped after an abort or a failed stream) have no
    // tool_start: they get a span of their own so every call the model made shows.
    const span = owner.tools.get(e.toolCallId)?.span ?? this.startToolSpan(owner, e.toolCallId, e.toolName)
    owner.tools.delete(e.toolCallId)
    if (owner.tools.size === 0 && this.batches.get(e.execId) === owner) {
      this.batches.delete(e.execId)
      anyRuntime.delete(e.execId)
    }
    span.setAttribute(conv.ATTR_NESTOR_RECEIPT_STATUS, e.receipt.status)
    // Only what differs from the usual (one attempt, not cached): every attribute costs per span.
    if (e.receipt.attempts > 1) span.setAttribute(conv.ATTR_NESTOR_TOOL_ATTEMPTS, e.receipt.attempts)
    if (e.receipt.cached) span.setAttribute(conv.ATTR_NESTOR_TOOL_CACHED, true)
    if (e.replayed) span.setAttribute(conv.ATTR_NESTOR_REPLAYED, true)
    if (e.edited) span.setAttribute(conv.ATTR_NESTOR_EDITED, true)
    if (this.captureContent) span.setAttribute(conv.ATTR_GEN_AI_TOOL_CALL_RESULT, toolResultText(e.result))
    if (e.isError) {
      span.setAttribute(conv.ATTR_ERROR_TYPE, e.receipt.status)
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: this.captureContent ? toolResultText(e.result) : e.receipt.status,
      })
    }
    span.end()
  }

  /**
   * The exec a call belongs to, or for a call at depth 0 of no open exec, its batch: a batch has
   * no agent_start, so its calls hang in the context active when they start (the caller's).
   */
  private ownerOf(e: EventOf<'tool_start'> | EventOf<'tool_end'>): CallOwner | undefined {
    const owner = this.open.get(e.execId) ?? this.batches.get(e.execId)
    if (owner || e.depth !== 0) return owner
    const batch: CallOwner = { ctx: context.active(), tools: new Map() }
    this.batches.set(e.execId, batch)
    anyRuntime.set(e.execId, batch)
    return batch
  }

  /** The exec's id and depth are on its invoke_agent span, the parent: not repeated here. */
  private startToolSpan(owner: CallOwner, toolCallId: string, toolName: string): Span {
    return this.tracer.startSpan(
      `${conv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL} ${toolName}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [conv.ATTR_GEN_AI_OPERATION_NAME]: conv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
          [conv.ATTR_GEN_AI_TOOL_NAME]: toolName,
          [conv.ATTR_GEN_AI_TOOL_TYPE]: conv.TOOL_TYPE_VALUE_FUNCTION,
          [conv.ATTR_GEN_AI_TOOL_CALL_ID]: toolCallId,
        },
      },
      owner.ctx,
    )
  }

  /** Approvals, questions and guardrail verdicts are events on the exec's spans (span-events.ts). */
  approvalRequired(e: EventOf<'approval_required'>): void {
    const exec = this.open.get(e.execId)
    if (exec) approvalEvents(exec, e)
  }

  inputRequired(e: EventOf<'input_required'>): void {
    const exec = this.open.get(e.execId)
    if (exec) inputEvents(exec, e, this.captureContent)
  }

  /** A handoff: the target's invoke_agent span takes over from the one that handed over (handoff-span.ts). */
  handoff(e: EventOf<'handoff'>): void {
    const exec = this.open.get(e.execId)
    if (exec) passSpan(this.tracer, exec, e)
  }

  guardrail(e: EventOf<'guardrail'>): void {
    const exec = this.open.get(e.execId)
    if (exec) guardrailEvent(exec, e)
  }

  /** agent_end is every exec's last event, on every path: whatever is still open ends here. */
  agentEnd(e: EventOf<'agent_end'>): void {
    const exec = this.open.get(e.execId)
    if (!exec) return
    this.open.delete(e.execId)
    anyRuntime.delete(e.execId)
    const result = e.result
    const failed = result.status === 'failed' || result.status === 'aborted'
    const type = failed ? (result.error ? errorType(result.error) : result.status) : undefined
    // A paused exec leaves calls waiting for a decision: their spans end with the pause.
    for (const tool of exec.tools.values()) endOpen(tool.span, result.status, type)
    if (exec.chat) endOpen(exec.chat, result.status, type)
    const span = exec.span
    span.setAttribute(conv.ATTR_NESTOR_EXEC_STATUS, result.status)
    span.setAttribute(conv.ATTR_NESTOR_ITERATIONS, result.iterationsUsed)
    span.setAttribute(conv.ATTR_GEN_AI_USAGE_INPUT_TOKENS, result.usage.input)
    span.setAttribute(conv.ATTR_GEN_AI_USAGE_OUTPUT_TOKENS, result.usage.output)
    setCacheAndCost(span, result.usage)
    if (result.totalUsage.cost) span.setAttribute(conv.ATTR_NESTOR_TOTAL_COST_USD, result.totalUsage.cost.total)
    if (this.captureContent && result.status === 'completed') {
      span.setAttribute(
        conv.ATTR_GEN_AI_OUTPUT_MESSAGES,
        JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: result.text }] }]),
      )
    }
    if (type !== undefined) {
      span.setAttribute(conv.ATTR_ERROR_TYPE, type)
      span.setStatus({ code: SpanStatusCode.ERROR, message: this.statusText(type, result.error?.message) })
    }
    span.end()
  }

  /** On unsubscribe: nothing stays open, children before their parents. */
  endAll(): void {
    for (const [execId, exec] of [...this.open].reverse()) {
      anyRuntime.delete(execId)
      for (const tool of exec.tools.values()) tool.span.end()
      exec.chat?.end()
      exec.span.end()
    }
    for (const [execId, batch] of this.batches) {
      anyRuntime.delete(execId)
      for (const tool of batch.tools.values()) tool.span.end()
    }
    this.open.clear()
    this.batches.clear()
  }

  /** A status message: the error's (redacted) text when content is captured, else its code only. */
  private statusText(code: string, text: string | undefined): string {
    return this.captureContent && text !== undefined ? text : code
  }
}

function endOpen(span: Span, status: string, type: string | undefined): void {
  span.setAttribute(conv.ATTR_NESTOR_EXEC_STATUS, status)
  if (type !== undefined) {
    span.setAttribute(conv.ATTR_ERROR_TYPE, type)
    span.setStatus({ code: SpanStatusCode.ERROR, message: status })
  }
  span.end()
}

const providerName = (name: string): string => conv.PROVIDER_NAMES[name] ?? name

/** Cache tokens as the conventions name them (only when there are some), and the price when known. */
function setCacheAndCost(span: Span, usage: Usage): void {
  if (usage.cacheRead > 0) span.setAttribute(conv.ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS, usage.cacheRead)
  if (usage.cacheWrite > 0) span.setAttribute(conv.ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS, usage.cacheWrite)
  if (usage.cost) span.setAttribute(conv.ATTR_NESTOR_COST_USD, usage.cost.total)
}
