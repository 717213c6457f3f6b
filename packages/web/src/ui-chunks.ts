import type {
  AgentEvent,
  ApprovalRequest,
  AssistantMessage,
  PendingInput,
  ToolReceipt,
  ToolResultMessage,
  Usage,
} from '@nestor/core'

/** What a nested exec looks like as a `data-exec` part (one part per exec, updated in place). */
export type ExecPartData = {
  execId: string
  parentExecId?: string
  depth: number
  status: 'running' | string
  /**
   * `replayed`: the result came from a journal, the tool did not run again (docs/durability.md);
   * `edited`: it is a fork's edit, which nothing recorded (docs/evals.md).
   */
  tools: {
    toolCallId: string
    toolName: string
    durationMs: number
    isError: boolean
    replayed?: true
    edited?: true
  }[]
  text: string
  tokens: number
}
/** Who answers now: a handoff (docs/handoffs.md) replaces the part (one `id`, updated in place). */
export type AgentPartData = { name: string; from?: string }
/** A guardrail's check at any depth (docs/guardrails.md): one part per check. */
export type GuardrailPartData = Omit<Extract<AgentEvent, { type: 'guardrail' }>, 'type' | 'seq' | 'timestamp'>

/** A call waiting for a decision, then decided: the whole request, its tool's `preview` included. */
export type ApprovalPartData = ApprovalRequest & { status: 'pending' | 'approved' | 'rejected' }
/** A question a tool asked (`ctx.ask`), answered by `POST {prefix}/{execId}/answer { id, value }`. */
export type InputPartData = PendingInput & { status: 'pending' | 'answered' }

/**
 * The AI SDK UI message stream chunks Nestor emits (the protocol `useChat` and
 * `readUIMessageStream` read; written here so @nestor/web does not depend on `ai`).
 */
export type UIChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | {
      type: 'finish'
      finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other'
      /** The whole run's usage (nested execs included), with its dollars when priced: docs/cost.md. */
      messageMetadata?: { usage: Usage }
    }
  | { type: 'error'; errorText: string }
  | { type: 'abort'; reason?: string }
  | { type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; id: string }
  | { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string }
  | { type: 'tool-input-start'; toolCallId: string; toolName: string }
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-output-available'; toolCallId: string; output: unknown }
  | { type: 'tool-output-error'; toolCallId: string; errorText: string }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: 'data-exec'; id: string; data: ExecPartData }
  | { type: 'data-approval'; id: string; data: ApprovalPartData }
  | { type: 'data-input'; id: string; data: InputPartData }
  | { type: 'data-receipt'; id: string; data: ToolReceipt }
  | { type: 'data-agent'; id: string; data: AgentPartData }
  | { type: 'data-guardrail'; id: string; data: GuardrailPartData }

const resultText = (result: ToolResultMessage) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
const textOf = (message: AssistantMessage) => message.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
const thinkingOf = (message: AssistantMessage) =>
  message.content.map((c) => (c.type === 'thinking' ? c.thinking : '')).join('')

/**
 * Turns Nestor events into UI chunks. The root exec's text, reasoning and tool calls become the
 * message's own parts; nested execs, approvals and receipts travel as `data-*` parts.
 */
export class UIChunkMapper {
  private open: { text?: string; reasoning?: string; streamedText: boolean; streamedReasoning: boolean } = {
    streamedText: false,
    streamedReasoning: false,
  }
  private readonly startedInputs = new Set<string>()
  private readonly execs = new Map<string, ExecPartData>()
  private readonly approvals = new Map<string, ApprovalPartData>()
  private readonly inputs = new Map<string, InputPartData[]>()
  private parts = 0

  constructor(private readonly messageId: string) {}

  start(): UIChunk[] {
    return [{ type: 'start', messageId: this.messageId }]
  }

  map(event: AgentEvent): UIChunk[] {
    if (event.type === 'guardrail') return [this.guardrail(event)]
    if (event.depth > 0) return this.nested(event)
    switch (event.type) {
      case 'turn_start':
        return [{ type: 'start-step' }]
      case 'turn_end':
        return [{ type: 'finish-step' }]
      case 'message_delta':
        return this.delta(event.delta)
      case 'message_end':
        if (event.abandoned) return this.abandon()
        return event.message.role === 'assistant' ? this.endMessage(event.message as AssistantMessage) : []
      case 'tool_end':
        return [
          ...this.approvalOutcome(event.toolCallId, event.receipt),
          ...this.inputsAnswered(event.toolCallId),
          this.output(event.toolCallId, event.result, event.isError, event.receipt),
          { type: 'data-receipt', id: event.toolCallId, data: event.receipt },
        ]
      case 'approval_required':
        return this.approvalRequests(event.approvals)
      case 'input_required':
        return this.inputRequests(event.inputs)
      case 'handoff':
        return [
          {
            type: 'data-agent',
            id: `${this.messageId}-agent`,
            data: { name: event.to, ...(event.from !== undefined && { from: event.from }) },
          },
        ]
      case 'agent_end': {
        const { status, error } = event.result
        // The protocol's own ending for a stopped run: the client marks the message aborted.
        if (status === 'aborted') return [{ type: 'abort', ...(error && { reason: error.message }) }]
        const chunks: UIChunk[] = error ? [{ type: 'error', errorText: `${error.code}: ${error.message}` }] : []
        chunks.push({
          type: 'finish',
          finishReason: status === 'completed' ? 'stop' : status === 'failed' ? 'error' : 'other',
          messageMetadata: { usage: event.result.totalUsage },
        })
        return chunks
      }
      default:
        return []
    }
  }

  private delta(delta: Extract<AgentEvent, { type: 'message_delta' }>['delta']): UIChunk[] {
    if (delta.kind === 'toolCall') {
      const chunks: UIChunk[] = []
      if (!this.startedInputs.has(delta.id)) {
        this.startedInputs.add(delta.id)
        chunks.push({ type: 'tool-input-start', toolCallId: delta.id, toolName: delta.name })
      }
      if (delta.argumentsDelta)
        chunks.push({ type: 'tool-input-delta', toolCallId: delta.id, inputTextDelta: delta.argumentsDelta })
      return chunks
    }
    const which = delta.kind === 'text' ? 'text' : 'reasoning'
    const chunks: UIChunk[] = []
    let id = this.open[which]
    if (!id) {
      id = this.open[which] = `${this.messageId}-${which}-${++this.parts}`
      chunks.push({ type: `${which}-start`, id })
    }
    if (which === 'text') this.open.streamedText = true
    else this.open.streamedReasoning = true
    chunks.push({ type: `${which}-delta`, id, delta: delta.text })
    return chunks
  }

  /**
   * A durable run's turn that a lost process left half-streamed (docs/dbos.md): its parts end
   * where they are and its deltas are not joined to the turn that runs again, which streams anew.
   */
  private abandon(): UIChunk[] {
    const chunks: UIChunk[] = []
    if (this.open.reasoning) chunks.push({ type: 'reasoning-end', id: this.open.reasoning })
    if (this.open.text) chunks.push({ type: 'text-end', id: this.open.text })
    this.open = { streamedText: false, streamedReasoning: false }
    this.startedInputs.clear()
    return chunks
  }

  private endMessage(message: AssistantMessage): UIChunk[] {
    const chunks: UIChunk[] = []
    // A provider that does not stream gives no deltas: the whole text arrives here.
    const thinking = this.open.streamedReasoning ? '' : thinkingOf(message)
    if (thinking) chunks.push(...this.delta({ kind: 'thinking', text: thinking }))
    const text = this.open.streamedText ? '' : textOf(message)
    if (text) chunks.push(...this.delta({ kind: 'text', text }))
    if (this.open.reasoning) chunks.push({ type: 'reasoning-end', id: this.open.reasoning })
    if (this.open.text) chunks.push({ type: 'text-end', id: this.open.text })
    this.open = { streamedText: false, streamedReasoning: false }
    for (const c of message.content)
      if (c.type === 'toolCall')
        chunks.push({ type: 'tool-input-available', toolCallId: c.id, toolName: c.name, input: c.arguments })
    return chunks
  }

  private output(toolCallId: string, result: ToolResultMessage, isError: boolean, receipt: ToolReceipt): UIChunk {
    // A person said no: the AI SDK's denied state, not a failed tool.
    if (receipt.status === 'rejected') return { type: 'tool-output-denied', toolCallId }
    return isError
      ? { type: 'tool-output-error', toolCallId, errorText: resultText(result) }
      : { type: 'tool-output-available', toolCallId, output: resultText(result) }
  }

  private guardrail({ type: _, seq, timestamp: __, ...data }: Extract<AgentEvent, { type: 'guardrail' }>): UIChunk {
    return { type: 'data-guardrail', id: `guardrail-${data.execId}-${seq}`, data }
  }

  private approvalRequests(requests: ApprovalRequest[]): UIChunk[] {
    return requests.map((request) => {
      const data: ApprovalPartData = { ...request, status: 'pending' }
      this.approvals.set(request.toolCallId, data)
      return { type: 'data-approval', id: request.toolCallId, data }
    })
  }

  private approvalOutcome(toolCallId: string, receipt: ToolReceipt): UIChunk[] {
    const pending = this.approvals.get(toolCallId)
    if (!pending) return []
    this.approvals.delete(toolCallId)
    return [
      {
        type: 'data-approval',
        id: toolCallId,
        data: { ...pending, status: receipt.status === 'rejected' ? 'rejected' : 'approved' },
      },
    ]
  }

  /** Questions a tool asked, as `data-input` parts a page shows a form for. */
  private inputRequests(inputs: PendingInput[]): UIChunk[] {
    return inputs.map((input) => {
      const data: InputPartData = { ...input, status: 'pending' }
      this.inputs.set(input.toolCallId, [...(this.inputs.get(input.toolCallId) ?? []), data])
      return { type: 'data-input', id: input.id, data }
    })
  }

  /** The call that asked ended: its questions wait no more (answered, or the call failed without an answer). */
  private inputsAnswered(toolCallId: string): UIChunk[] {
    const asked = this.inputs.get(toolCallId)
    if (!asked) return []
    this.inputs.delete(toolCallId)
    return asked.map((data) => ({ type: 'data-input', id: data.id, data: { ...data, status: 'answered' } }))
  }

  private nested(event: AgentEvent): UIChunk[] {
    if (event.type === 'approval_required') return this.approvalRequests(event.approvals)
    if (event.type === 'input_required') return this.inputRequests(event.inputs)
    let exec = this.execs.get(event.execId)
    if (event.type === 'agent_start') {
      exec = {
        execId: event.execId,
        depth: event.depth,
        status: 'running',
        tools: [],
        text: '',
        tokens: 0,
        ...(event.parentExecId && { parentExecId: event.parentExecId }),
      }
      this.execs.set(event.execId, exec)
      return [{ type: 'data-exec', id: event.execId, data: exec }]
    }
    if (!exec) return []
    if (event.type === 'tool_end') {
      exec = {
        ...exec,
        tools: [
          ...exec.tools,
          {
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            durationMs: event.durationMs,
            isError: event.isError,
            ...(event.replayed && { replayed: true as const }),
            ...(event.edited && { edited: true as const }),
          },
        ],
      }
      this.execs.set(event.execId, exec)
      return [
        ...this.approvalOutcome(event.toolCallId, event.receipt),
        ...this.inputsAnswered(event.toolCallId),
        { type: 'data-exec', id: event.execId, data: exec },
        { type: 'data-receipt', id: event.toolCallId, data: event.receipt },
      ]
    }
    if (event.type === 'agent_end') {
      this.execs.delete(event.execId)
      const done: ExecPartData = {
        ...exec,
        status: event.result.status,
        text: event.result.text,
        tokens: event.result.totalUsage.total,
      }
      return [{ type: 'data-exec', id: event.execId, data: done }]
    }
    return []
  }
}
