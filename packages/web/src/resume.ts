import { NestorError, type AttachedRun, type Runtime } from '@nestor/core'
import { allowed, checkAccess, notFound, type RunAccess } from './access.js'
import { errorResponse } from './http-errors.js'
import { toResponse, type SSEOptions } from './sse.js'

/**
 * The position a reconnecting client has seen: the `Last-Event-ID` header (EventSource sends it
 * when it reconnects by itself), else the `lastEventId` query parameter (a reloaded page has no
 * header to send). 0 when neither is there; undefined when one is there but is not a position.
 */
export function lastEventIdOf(request: Request): number | undefined {
  const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('lastEventId') ?? '0'
  return /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : undefined
}

/** Attaches to an exec after a position, or the 400/404/410 Response that explains why not. */
export function attachOrExplain(runtime: Runtime, execId: string, after: number | undefined): AttachedRun | Response {
  if (after === undefined)
    return errorResponse(
      400,
      'bad_last_event_id',
      'Last-Event-ID (or lastEventId) must be a non-negative integer position',
    )
  try {
    return runtime.attach(execId, { after }) ?? notFound(execId)
  } catch (error) {
    if (NestorError.isInstance(error) && error.code === 'events_expired')
      return errorResponse(410, 'events_expired', error.message)
    if (NestorError.isInstance(error) && error.code === 'invalid_options')
      return errorResponse(400, 'bad_last_event_id', error.message)
    return errorResponse(500, 'internal', 'the run could not be attached')
  }
}

/** The events Response once access is checked (runRoutes checks it itself). */
export function eventsResponse(runtime: Runtime, execId: string, request: Request, options: SSEOptions): Response {
  const attached = attachOrExplain(runtime, execId, lastEventIdOf(request))
  return attached instanceof Response ? attached : toResponse(attached, options)
}

/**
 * The SSE Response for `GET …/events` of an exec: every event after the client's Last-Event-ID,
 * nothing twice, live until the run ends; the run must still be kept (see docs/web.md "Retention").
 * `authorize` / `owner` say who may read it (action `events`): anyone else gets 404 `not_found`.
 */
export async function resumeResponse(
  runtime: Runtime,
  execId: string,
  request: Request,
  options: SSEOptions & RunAccess,
): Promise<Response> {
  checkAccess(options, 'resumeResponse')
  if (!(await allowed(request, options, runtime, 'events', execId)).ok) return notFound(execId)
  return eventsResponse(runtime, execId, request, options)
}
