import { createInterface } from 'node:readline/promises'
import type { ApprovalDecision, ApprovalRequest } from '@nestor/core'
import type { LoopRenderer } from './render.js'

/**
 * The runtime's approve handler. In a terminal it asks y/n; otherwise (CI, pipes, tests) it
 * approves by itself and says so, so the demo never hangs waiting for input nobody can give.
 */
export function approver(
  interactive: boolean,
  renderer: LoopRenderer | undefined,
  /** Decide without asking: `--yes` / `--no` (the "no" path is also recorded in the cassette). */
  fixed?: boolean,
): (request: ApprovalRequest) => Promise<ApprovalDecision> {
  return async (request) => {
    if (fixed !== undefined) {
      renderer?.decision(request, fixed, fixed ? '--yes' : '--no')
      return fixed ? { approved: true } : { approved: false, reason: 'the user said no' }
    }
    if (!interactive) {
      renderer?.decision(request, true, 'auto-approved: not an interactive terminal')
      return { approved: true }
    }
    const rl = createInterface({ input: process.stdin, output: process.stdout })
    try {
      const answer = await rl.question(`${'  '.repeat(request.depth * 2)}  ? allow ${request.toolName}? [y/N] `)
      const approved = /^y(es)?$/i.test(answer.trim())
      renderer?.decision(request, approved, 'your answer')
      return approved ? { approved: true } : { approved: false, reason: 'the user said no' }
    } finally {
      rl.close()
    }
  }
}
