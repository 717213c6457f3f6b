import type { DurableEvent, DurableExecs } from '@nestor/dbos'

/** Reads a run's stream from the start until an event of `type` (a run waiting for approval). */
export async function waitForEvent(trips: DurableExecs, workflowId: string, type: string): Promise<DurableEvent> {
  for await (const event of trips.events(workflowId)) if (event.type === type) return event
  throw new Error(`the stream of ${workflowId} ended without ${type}`)
}

/** Polls DBOS until the workflow has recorded a step of that name: then a restart replays it. */
export async function waitForStep(workflowId: string, name: string, timeoutMs = 30_000): Promise<void> {
  const { DBOS } = await import('@dbos-inc/dbos-sdk')
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const steps = (await DBOS.listWorkflowSteps(workflowId)) ?? []
    if (steps.some((step) => step.name === name && step.error === null && step.output !== undefined)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${workflowId} recorded no ${name} step within ${timeoutMs} ms`)
}
