import type { ExecRun, Runtime } from '@nestor/core'
import { allowed, callerOf, checkAccess, notFound, ownerBook, recordOwner, type RunAccess } from './access.js'
import type { ApprovalGate } from './approval-gate.js'
import { control } from './control.js'
import { errorResponse, jsonBody } from './http-errors.js'
import { eventsResponse } from './resume.js'
import type { SSEOptions } from './sse.js'

export type RunRoutesOptions = RunAccess & {
  runtime: Runtime
  /** Opens a run for `POST {prefix}` with body `{ "input": string }`. Without it, runs are opened elsewhere. */
  start?: (input: string, request: Request) => ExecRun
  /** Decides approvals posted to `{prefix}/{execId}/approve|reject|edit`, and takes answers posted to `…/answer`. */
  approvals?: ApprovalGate
  /** Default '/runs'. */
  prefix?: string
  sse?: SSEOptions
  /** Request bodies over this many bytes answer 413. Default 1 MiB. */
  maxBodyBytes?: number
}

/**
 * A fetch-style handler for the routes a chat front end needs; undefined for any other path, so
 * it mounts under Hono, a Next.js catch-all route or node:http (`toNodeListener`) alike:
 * - `POST {prefix}` `{ input }` → 201 `{ execId }` (the run belongs to the caller's `owner`)
 * - `GET {prefix}` → `{ runs: [{ execId, live }] }`, the runs started here that the caller may read
 * - `GET {prefix}/{execId}/events` → SSE after `Last-Event-ID` (or `?lastEventId=`)
 * - `GET {prefix}/{execId}` → `{ execId, live, position, status?, pending, inputs }`
 * - `POST {prefix}/{execId}/{steer|followUp|abort|approve|reject|edit|answer}` → 202 (see `handleControl`)
 * Every request is checked with `authorize` / `owner` (one is required; `invalid_options` without);
 * a run the caller may not reach answers 404 `not_found`, exactly like an unknown id.
 */
export function runRoutes(options: RunRoutesOptions): (request: Request) => Promise<Response | undefined> {
  checkAccess(options, 'runRoutes')
  const prefix = (options.prefix ?? '/runs').replace(/\/$/, '')
  options.approvals?.watch(options.runtime)
  return async (request) => {
    const path = new URL(request.url).pathname
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined
    const segments = decodeSegments(path.slice(prefix.length + 1))
    if (!segments) return errorResponse(400, 'bad_path', 'the path is not valid percent-encoding')
    const [execId, action, ...rest] = segments
    if (rest.length) return undefined
    if (!execId) {
      if (request.method === 'POST') return startRun(request, options)
      if (request.method === 'GET') return listRuns(request, options)
      return errorResponse(405, 'method_not_allowed', `use POST ${prefix} to start a run, GET to list yours`)
    }
    if (action === 'events') {
      if (request.method !== 'GET') return errorResponse(405, 'method_not_allowed', 'use GET for events')
      if (!(await allowed(request, options, options.runtime, 'events', execId)).ok) return notFound(execId)
      return eventsResponse(options.runtime, execId, request, options.sse ?? {})
    }
    if (action === undefined) {
      if (request.method !== 'GET') return errorResponse(405, 'method_not_allowed', 'use GET to read a run')
      if (!(await allowed(request, options, options.runtime, 'read', execId)).ok) return notFound(execId)
      return describeRun(options, execId)
    }
    return control(request, {
      ...options,
      execId,
      action,
    })
  }
}

/** The path's segments decoded, or undefined when one is not valid percent-encoding. */
export function decodeSegments(path: string): string[] | undefined {
  try {
    return path.split('/').map(decodeURIComponent)
  } catch {
    return undefined
  }
}

async function startRun(request: Request, options: RunRoutesOptions): Promise<Response> {
  if (!options.start) return errorResponse(404, 'no_start', 'this server does not start runs over HTTP')
  const body = await jsonBody(request, options.maxBodyBytes)
  if (body instanceof Response) return body
  const access = await allowed(request, options, options.runtime, 'start')
  if (!access.ok) return notFound(undefined)
  if (typeof body.input !== 'string' || body.input.trim() === '')
    return errorResponse(400, 'bad_request', 'start a run with { "input": a non-empty string }')
  let run: ExecRun
  try {
    run = options.start(body.input, request)
  } catch {
    // The app's start threw (a bad exec option): its message may hold internals, so it stays here.
    return errorResponse(500, 'internal', 'the run could not be started')
  }
  // A run the runtime does not keep (retention.maxLiveRuns reached) could not be read or controlled.
  if (!options.runtime.attach(run.execId, { after: 'latest' }))
    return errorResponse(503, 'too_many_runs', 'the server runs as many runs as it keeps; try again later')
  recordOwner(options.runtime, run.execId, access.owner)
  return Response.json({ execId: run.execId }, { status: 201 })
}

async function listRuns(request: Request, options: RunRoutesOptions): Promise<Response> {
  const runs: { execId: string; live: boolean }[] = []
  // The owner is asked once per request, not once per kept run (there may be a thousand).
  const caller = await callerOf(request, options)
  if (!caller.ok) return Response.json({ runs })
  for (const execId of ownerBook(options.runtime).keys()) {
    const run = options.runtime.attach(execId, { after: 'latest' })
    if (run && (await allowed(request, options, options.runtime, 'read', execId, caller)).ok)
      runs.push({ execId, live: run.live })
  }
  return Response.json({ runs })
}

async function describeRun(options: RunRoutesOptions, execId: string): Promise<Response> {
  const run = options.runtime.attach(execId, { after: 'latest' })
  if (!run) return notFound(execId)
  const status = run.live ? undefined : (await run.result).status
  return Response.json({
    execId,
    live: run.live,
    position: run.position,
    ...(status && { status }),
    pending: options.approvals?.pending(execId) ?? [],
    inputs: options.approvals?.inputs(execId) ?? [],
  })
}
