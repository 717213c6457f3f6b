import { NestorError } from '../contract/errors.js'
import type { ExecContext } from './context.js'

/**
 * Tree-wide budgets, checked before each model call. A breach is a typed failure naming the
 * budget, never a silent stop.
 */
export function checkBudgets(ctx: ExecContext): NestorError | undefined {
  const tree = ctx.tree
  if (tree.maxTotalIterations !== undefined && tree.iterations >= tree.maxTotalIterations) {
    return new NestorError(
      'budget_exceeded',
      `budget maxTotalIterations exceeded: ${tree.iterations} of ${tree.maxTotalIterations} model calls used by the exec tree`,
    )
  }
  if (tree.maxTotalTokens !== undefined && tree.tokens >= tree.maxTotalTokens) {
    return new NestorError(
      'budget_exceeded',
      `budget maxTotalTokens exceeded: ${tree.tokens} of ${tree.maxTotalTokens} tokens used by the exec tree`,
    )
  }
  if (tree.deadlineMs !== undefined && Date.now() - tree.startedAt >= tree.deadlineMs) {
    return new NestorError(
      'budget_exceeded',
      `budget deadlineMs exceeded: ${Date.now() - tree.startedAt} ms of ${tree.deadlineMs} ms elapsed`,
    )
  }
  return undefined
}

export function iterationLimit(ctx: ExecContext): NestorError {
  return new NestorError(
    'iteration_limit',
    `iteration limit of ${ctx.state.iterationBudget} reached: the model still wanted tools after ${ctx.state.iterationsUsed} model calls`,
  )
}
