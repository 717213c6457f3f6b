import type { AgentEvent, ApprovalRequest, Usage } from '@nestor/core'

export type Sink = (text: string) => void

const codes = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const
type Style = keyof typeof codes

/**
 * Draws the loop as it runs: one indented block per exec (depth), "step n/m" per model call,
 * streamed text, tool calls with their timings, approvals, and a usage summary at the end.
 * Without `color` (not a terminal) the output is plain text: no ANSI codes at all.
 */
export class LoopRenderer {
  private readonly labels = new Map<string, string>()
  /** The tool each exec is running right now: its child exec is named after it. */
  private readonly running = new Map<string, string>()
  /** Tool names by call id: a tool guardrail's line names the call it checked. */
  private readonly toolNames = new Map<string, string>()
  private inText = false
  private steps = 0
  private toolCalls = 0
  private readonly started = Date.now()

  constructor(
    private readonly write: Sink,
    private readonly color: boolean,
  ) {}

  private paint(style: Style, text: string): string {
    return this.color ? `\u001b[${codes[style]}m${text}\u001b[0m` : text
  }

  private line(depth: number, text: string): void {
    this.closeText()
    this.write(`${'  '.repeat(depth * 2)}${text}\n`)
  }

  private closeText(): void {
    if (this.inText) this.write('\n')
    this.inText = false
  }

  render(event: AgentEvent): void {
    const d = event.depth
    const pad = '  '.repeat(d * 2)
    switch (event.type) {
      case 'agent_start': {
        const label = event.parentExecId ? (this.running.get(event.parentExecId) ?? 'nested exec') : 'planner'
        this.labels.set(event.execId, label)
        this.line(
          d,
          `${this.paint('bold', `▶ ${label}`)} ${this.paint('dim', `(depth ${d}) tools: ${event.toolNames.join(', ') || 'none'}`)}`,
        )
        break
      }
      case 'turn_start':
        this.steps++
        this.line(
          d,
          this.paint(
            'blue',
            `step ${event.iteration}/${event.iterationBudget === Infinity ? '∞' : event.iterationBudget}`,
          ),
        )
        break
      case 'message_delta':
        if (event.delta.kind === 'toolCall') break
        if (!this.inText) this.write(`${pad}  ${this.paint('dim', event.delta.kind === 'thinking' ? '┆' : '│')} `)
        this.inText = true
        this.write(event.delta.text.replace(/\n/g, `\n${pad}  ${this.paint('dim', '│')} `))
        break
      case 'message_end':
        this.closeText()
        break
      case 'tool_start':
        this.toolCalls++
        this.running.set(event.execId, event.toolName)
        this.toolNames.set(event.toolCallId, event.toolName)
        this.line(
          d,
          `  ${this.paint('cyan', '→')} ${event.toolName} ${this.paint('dim', short(JSON.stringify(event.args), 110))}`,
        )
        break
      case 'tool_end': {
        const text = event.result.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join(' ')
        const mark = event.isError
          ? this.paint('red', `✗ ${event.toolName}`)
          : this.paint('green', `✓ ${event.toolName}`)
        this.line(d, `  ${mark} ${this.paint('dim', `${event.durationMs}ms`)} ${short(text.replace(/\s+/g, ' '), 90)}`)
        break
      }
      case 'approval_required':
        for (const a of event.approvals)
          this.line(
            a.depth,
            `  ${this.paint('yellow', `⚠ approval required: ${a.toolName}`)} ${this.paint('dim', short(JSON.stringify(a.args), 100))}`,
          )
        break
      case 'guardrail': {
        const call = event.toolCallId === undefined ? undefined : this.toolNames.get(event.toolCallId)
        const where = event.phase ? `${event.phase} ${call ?? 'a call'}` : event.kind
        const verdict = event.verdict === 'pass' ? this.paint('green', 'pass') : this.paint('yellow', event.verdict)
        const why = event.reason ? `: ${event.reason}` : ''
        this.line(d, `  ${this.paint('dim', `guardrail ${event.name} ${where}:`)} ${verdict}${why}`)
        break
      }
      case 'retry':
        this.line(
          d,
          `  ${this.paint('yellow', `↻ retry ${event.attempt} in ${event.delayMs}ms`)}: ${event.error.message}`,
        )
        break
      case 'agent_end': {
        const r = event.result
        const label = this.labels.get(event.execId) ?? 'exec'
        const status = r.status === 'completed' ? this.paint('green', r.status) : this.paint('red', r.status)
        this.line(
          d,
          `${this.paint('bold', `◀ ${label}`)} ${status} in ${r.iterationsUsed}/${r.iterationBudget === Infinity ? '∞' : r.iterationBudget} steps${r.error ? `: ${r.error.message}` : ''}`,
        )
        if (d === 0) this.summary(r.totalUsage, r.iterationsUsed)
        break
      }
      default:
        break
    }
  }

  /** Called by the approve handler, so the decision shows under the request it answers. */
  decision(request: ApprovalRequest, approved: boolean, how: string): void {
    const text = approved
      ? this.paint('green', `✓ approved ${request.toolName}`)
      : this.paint('red', `✗ rejected ${request.toolName}`)
    this.line(request.depth, `  ${text} ${this.paint('dim', `(${how})`)}`)
  }

  private summary(usage: Usage, rootSteps: number): void {
    const seconds = ((Date.now() - this.started) / 1000).toFixed(2)
    this.line(0, this.paint('dim', '─'.repeat(60)))
    this.line(
      0,
      `usage: ${usage.input} input + ${usage.output} output = ${usage.total} tokens (whole tree) · ${costText(usage)}`,
    )
    this.line(
      0,
      `steps: ${rootSteps} at the root, ${this.steps} in the tree · tool calls: ${this.toolCalls} · ${seconds}s`,
    )
  }
}

/** Dollars when every turn of the tree was priced; otherwise it says so (never a guessed figure). */
const costText = (usage: Usage): string =>
  usage.cost
    ? `$${usage.cost.total.toFixed(usage.cost.total < 0.01 ? 6 : 4)}`
    : 'cost unknown (a model without a price)'

const short = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
