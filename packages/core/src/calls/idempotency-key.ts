import { createHash } from 'node:crypto'
import type { ExecContext } from '../exec/context.js'
import { toolStep } from '../state/tree-journal.js'

/**
 * A call's idempotency key: a hash of its run id and its journal key (the exec's path in the tree,
 * the iteration, the tool call id), which a replay or a recovery rebuilds identically and no other
 * call shares. Hashed so that it is header-safe and bounded whatever the run id holds; computed on
 * first read, so calls whose body never reads it pay nothing.
 */
export function idempotencyKeyOf(ctx: ExecContext, iteration: number, toolCallId: string): () => string {
  let key: string | undefined
  return () => {
    if (key !== undefined) return key
    const [runId, step] = toolStep(ctx.journal, iteration, toolCallId) ?? [ctx.execId, toolCallId]
    key = createHash('sha256').update(runId).update('\0').update(step).digest('hex')
    return key
  }
}
