import { NestorError } from '@nestor/core'

// Letters, digits and `_ - : @ .`, up to 200 characters. Not `#` (the inbox cursor's run id is
// `{id}#inbox`) and no id ending in `.inbox` (the inbox workflow of run `x` is `x.inbox`).
const WORKFLOW_ID = /^[A-Za-z0-9][A-Za-z0-9_:@.-]{0,199}$/

/** Refuses an id that could collide with another run's inbox or journal rows. */
export function checkWorkflowId(workflowId: unknown): string {
  if (typeof workflowId !== 'string' || !WORKFLOW_ID.test(workflowId) || workflowId.endsWith('.inbox'))
    throw new NestorError(
      'invalid_options',
      `invalid workflowId ${JSON.stringify(workflowId)}: expected 1 to 200 letters, digits or _ - : @ . (starting with a letter or digit, not ending in .inbox)`,
    )
  return workflowId
}
