import type { AgentEvent, ExecResult, Usage } from '@nestor/core'
import { addUsage, emptyUsage } from '@nestor/core/integration-kit'

/** One tool call of an exec, with the execs its body opened. */
export type ToolNode = {
  toolCallId: string
  toolName: string
  args: Record<string, unknown>
  isError?: boolean
  durationMs?: number
  status?: string
  /** The result's text, cut to 500 characters. */
  result?: string
  replayed?: boolean
  /** The result is a fork's edit: the body did not run, and nothing recorded it. */
  edited?: boolean
  children: ExecNode[]
}

/** One exec of the tree: what it was asked (its tool), how it ended, the calls it made in order. */
export type ExecNode = {
  execId: string
  /** `root`, or the tool whose body opened it. */
  name: string
  depth: number
  status?: string
  text?: string
  usage?: Usage
  iterations?: number
  tools: ToolNode[]
}

const cut = (text: string, max = 500) => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * Builds the tree from a run's events as they come, synchronously (`run.subscribe`). Cheap: most
 * events fall through the switch, and the lookups are small arrays of the tree's own execs and
 * calls (a case has few), not maps made per case.
 */
export class TreeBuilder {
  private readonly execs: ExecNode[] = []
  private readonly calls: ToolNode[] = []
  root: ExecNode | undefined
  /** Usage of live model turns (not those replayed from a journal) per model, for costs. */
  readonly byModel = new Map<string, Usage>()

  private exec(execId: string): ExecNode | undefined {
    for (let i = this.execs.length - 1; i >= 0; i--) if (this.execs[i]!.execId === execId) return this.execs[i]
    return undefined
  }

  private call(toolCallId: string): ToolNode | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) if (this.calls[i]!.toolCallId === toolCallId) return this.calls[i]
    return undefined
  }

  /** Bound: handed to `run.subscribe` as it is. */
  readonly add = (event: AgentEvent): void => {
    switch (event.type) {
      case 'agent_start': {
        const call = event.parentToolCallId === undefined ? undefined : this.call(event.parentToolCallId)
        const node: ExecNode = { execId: event.execId, name: call?.toolName ?? 'root', depth: event.depth, tools: [] }
        this.execs.push(node)
        if (call) call.children.push(node)
        else this.root ??= node
        return
      }
      case 'tool_start': {
        const call: ToolNode = {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: event.args,
          children: [],
        }
        this.calls.push(call)
        this.exec(event.execId)?.tools.push(call)
        return
      }
      case 'tool_end': {
        const call = this.call(event.toolCallId)
        if (!call) return
        call.isError = event.isError
        call.durationMs = event.durationMs
        call.status = event.receipt.status
        let text = ''
        for (const c of event.result.content) text += c.type === 'text' ? c.text : `[${c.type}]`
        call.result = cut(text)
        if (event.replayed) call.replayed = true
        if (event.edited) call.edited = true
        return
      }
      case 'message_end': {
        const m = event.message
        // Neither a replayed nor an edited message was a model call: no usage to count.
        if (m.role !== 'assistant' || event.replayed || event.edited) return
        const seen = this.byModel.get(m.model)
        this.byModel.set(m.model, addUsage(seen ?? emptyUsage(), m.usage))
        return
      }
      case 'agent_end': {
        const node = this.exec(event.execId)
        if (!node) return
        node.status = event.result.status
        node.text = cut(event.result.text, 2000)
        node.usage = event.result.totalUsage
        node.iterations = event.result.iterationsUsed
        return
      }
      default:
        return
    }
  }
}

/** The tree of a result seen without its events: the root and its receipts. */
export function treeOfResult(result: ExecResult): ExecNode {
  return {
    execId: result.execId,
    name: 'root',
    depth: 0,
    status: result.status,
    text: cut(result.text, 2000),
    usage: result.totalUsage,
    iterations: result.iterationsUsed,
    tools: result.receipts
      .filter((r) => r.depth === 0)
      .map((r) => ({
        toolCallId: r.toolCallId,
        toolName: r.toolName,
        args: {},
        status: r.status,
        durationMs: r.durationMs,
        children: [],
      })),
  }
}
