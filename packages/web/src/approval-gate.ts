import type { ApprovalDecision, ApprovalRequest } from '@nestor/core'

type Waiting = { request: ApprovalRequest; decide: (decision: ApprovalDecision) => void }

/**
 * Approvals decided over HTTP. Pass `gate.approve` as the runtime's `approve` handler: a call that
 * needs approval waits (the run stays live, `approval_required` is in its stream) until
 * `gate.decide` answers it, or the exec is aborted. Keyed by root exec id and tool call id.
 */
export class ApprovalGate {
  private readonly waiting = new Map<string, Waiting>()

  readonly approve = (request: ApprovalRequest): Promise<ApprovalDecision> =>
    new Promise((resolve) => {
      const key = keyOf(request.path[0] ?? request.execId, request.toolCallId)
      this.waiting.set(key, {
        request,
        decide: (decision) => {
          this.waiting.delete(key)
          resolve(decision)
        },
      })
    })

  /** The calls of one root exec waiting for a decision. */
  pending(rootExecId: string): ApprovalRequest[] {
    return [...this.waiting.values()]
      .filter((w) => (w.request.path[0] ?? w.request.execId) === rootExecId)
      .map((w) => w.request)
  }

  /** Answers a waiting call; false when no such call waits (unknown, or already decided). */
  decide(rootExecId: string, toolCallId: string, decision: ApprovalDecision): boolean {
    const waiting = this.waiting.get(keyOf(rootExecId, toolCallId))
    if (!waiting) return false
    waiting.decide(decision)
    return true
  }
}

const keyOf = (rootExecId: string, toolCallId: string) => `${rootExecId}\u0000${toolCallId}`
