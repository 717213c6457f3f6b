import type { ExecResult } from '../contract/exec-types.js'
import type { NestorError } from '../contract/errors.js'
import type { ExecContext } from '../exec/context.js'
import { asInternal } from '../exec/hooks.js'
import { announce, end, resultOf, type LoopStart } from '../loop/loop.js'

// How a run ends when its loop does not run (refused before it starts) or broke under it.

/** A child past maxDepth: agent_start and agent_end, a failed result, no model call. */
export async function refused(ctx: ExecContext, start: LoopStart, error: NestorError): Promise<ExecResult> {
  announce(ctx, start)
  // Aborted while it waited to start (for a busy session): an abort, like one during the run.
  return end(ctx, { status: error.code === 'aborted' ? 'aborted' : 'failed', error })
}

/**
 * Only reached if the loop itself broke: the result as it stands, without further events. It is
 * what the run resolves with, so it must not throw: when the history is what broke (a bad message
 * the loop took in), the result leaves it out rather than walk it again.
 */
export function fallbackResult(ctx: ExecContext, error: unknown): ExecResult {
  const ending = { status: 'failed' as const, error: asInternal(error) }
  try {
    return resultOf(ctx, ending)
  } catch {
    return resultOf(ctx, ending, false)
  }
}
