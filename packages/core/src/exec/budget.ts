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

/**
 * The tool-call budgets, checked before each call runs: the exec's own (`maxToolCalls`), then the
 * tree's (`maxTotalToolCalls`). Counts calls that ran or are running, so parallel calls cannot
 * overshoot together.
 */
export function checkToolCallBudgets(ctx: ExecContext): NestorError | undefined {
  const { state, tree } = ctx
  if (state.toolCallsUsed >= state.toolCallBudget) {
    return new NestorError(
      'budget_exceeded',
      `budget maxToolCalls exceeded: ${state.toolCallsUsed} of ${state.toolCallBudget} tool calls used by exec ${ctx.execId}`,
    )
  }
  if (tree.maxTotalToolCalls !== undefined && tree.toolCalls >= tree.maxTotalToolCalls) {
    return new NestorError(
      'budget_exceeded',
      `budget maxTotalToolCalls exceeded: ${tree.toolCalls} of ${tree.maxTotalToolCalls} tool calls used by the exec tree`,
    )
  }
  return undefined
}

function iterationLimit(ctx: ExecContext): NestorError {
  return new NestorError(
    'iteration_limit',
    `iteration limit of ${ctx.state.iterationBudget} reached: the model still wanted tools after ${ctx.state.iterationsUsed} model calls`,
  )
}

/** What stops a model call before it starts: a tree-wide budget, else this exec's iteration budget. */
export function turnBudgetError(ctx: ExecContext): NestorError | undefined {
  const tree = checkBudgets(ctx)
  if (tree) return tree
  return ctx.state.iterationsUsed >= ctx.state.iterationBudget ? iterationLimit(ctx) : undefined
}
