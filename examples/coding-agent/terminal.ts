import { createInterface } from 'node:readline/promises'
import type { AgentEvent, ApprovalDecision, ApprovalRequest } from '@nestor/core'

export type Sink = (text: string) => void

const firstLines = (text: string, n: number) => {
  const lines = text.trimEnd().split('\n')
  return lines.slice(0, n).join('\n    ') + (lines.length > n ? `\n    … ${lines.length - n} more lines` : '')
}

/** One or a few plain lines per event: the agent's words, each call and its result. */
export function render(write: Sink, event: AgentEvent): void {
  if (event.type === 'message_end' && event.message.role === 'assistant') {
    for (const part of event.message.content)
      if (part.type === 'text' && part.text.trim()) write(`│ ${part.text.trim()}\n`)
  } else if (event.type === 'tool_start') {
    write(`→ ${event.toolName} ${JSON.stringify(event.args)}\n`)
  } else if (event.type === 'tool_end') {
    const text = event.result.content.map((c) => ('text' in c ? c.text : '')).join('')
    write(`  ${event.isError ? '✗' : '✓'} ${firstLines(text, 6)}\n`)
  }
}

/**
 * Shows what the call would do (the diff of an edit, the command line) and asks y/N in a
 * terminal. Elsewhere (tests, pipes) it decides by `fixed` (--yes / --no), or approves and says so.
 */
export function approver(write: Sink, interactive: boolean, fixed?: boolean) {
  return async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    write(`  ? ${request.toolName} wants to:\n    ${String(request.preview).trimEnd().split('\n').join('\n    ')}\n`)
    let approved: boolean
    if (fixed !== undefined) {
      approved = fixed
      write(`  ${approved ? 'approved' : 'rejected'} (${fixed ? '--yes' : '--no'})\n`)
    } else if (!interactive) {
      approved = true
      write('  approved (not an interactive terminal)\n')
    } else {
      const rl = createInterface({ input: process.stdin, output: process.stdout })
      approved = /^y(es)?$/i.test((await rl.question('  allow? [y/N] ')).trim())
      rl.close()
    }
    return approved ? { approved: true } : { approved: false, reason: 'the user said no' }
  }
}
