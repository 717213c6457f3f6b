import type { ExecRun, Runtime } from '@nestor/core'
import type { ApprovalGate } from './approval-gate.js'
import { handleControl } from './control.js'
import { errorResponse, jsonBody } from './http-errors.js'
import { resumeResponse } from './resume.js'
import type { SSEOptions } from './sse.js'

export type RunRoutesOptions = {
  runtime: Runtime
  /** Opens a run for `POST {prefix}` with body `{ "input": string }`. Without it, runs are opened elsewhere. */
  start?: (input: string, request: Request) => ExecRun
  /** Decides approvals posted to `{prefix}/{execId}/approve|reject|edit`. */
  approvals?: ApprovalGate
  /** Default '/runs'. */
  prefix?: string
  sse?: SSEOptions
}

/**
 * A fetch-style handler for the routes a chat front end needs; undefined for any other path, so
 * it mounts under Hono, a Next.js catch-all route or node:http (`toNodeListener`) alike:
 * - `POST {prefix}` `{ input }` → 201 `{ execId }`
 * - `GET {prefix}/{execId}` → `{ execId, live, position, status?, pending }`
 * - `GET {prefix}/{execId}/events` → SSE after `Last-Event-ID` (or `?lastEventId=`)
 * - `POST {prefix}/{execId}/{steer|followUp|abort|approve|reject|edit}` → 202 (see `handleControl`)
 */
export function runRoutes(options: RunRoutesOptions): (request: Request) => Promise<Response | undefined> {
  const prefix = (options.prefix ?? '/runs').replace(/\/$/, '')
  return async (request) => {
    const path = new URL(request.url).pathname
    if (path !== prefix && !path.startsWith(`${prefix}/`)) return undefined
    const [execId, action, ...rest] = path
      .slice(prefix.length + 1)
      .split('/')
      .map(decodeURIComponent)
    if (rest.length) return undefined
    if (!execId)
      return request.method === 'POST'
        ? startRun(request, options)
        : errorResponse(405, 'method_not_allowed', `use POST ${prefix} to start a run`)
    if (action === 'events')
      return request.method === 'GET'
        ? resumeResponse(options.runtime, execId, request, options.sse)
        : errorResponse(405, 'method_not_allowed', 'use GET for events')
    if (action === undefined) return describeRun(options, execId)
    return handleControl(request, {
      runtime: options.runtime,
      execId,
      action,
      ...(options.approvals && { approvals: options.approvals }),
    })
  }
}

async function startRun(request: Request, options: RunRoutesOptions): Promise<Response> {
  if (!options.start) return errorResponse(404, 'no_start', 'this server does not start runs over HTTP')
  const body = await jsonBody(request)
  if (body instanceof Response) return body
  if (typeof body.input !== 'string' || body.input.trim() === '')
    return errorResponse(400, 'bad_request', 'start a run with { "input": a non-empty string }')
  const run = options.start(body.input, request)
  return Response.json({ execId: run.execId }, { status: 201 })
}

async function describeRun(options: RunRoutesOptions, execId: string): Promise<Response> {
  const run = options.runtime.attach(execId, { after: 'latest' })
  if (!run) return errorResponse(404, 'unknown_exec', `no run ${execId} is kept by this server`)
  const status = run.live ? undefined : (await run.result).status
  return Response.json({
    execId,
    live: run.live,
    position: run.position,
    ...(status && { status }),
    pending: options.approvals?.pending(execId) ?? [],
  })
}
