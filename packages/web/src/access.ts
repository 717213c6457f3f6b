import { NestorError, type Runtime } from '@nestor/core'
import { errorResponse } from './http-errors.js'
import { RunMap } from './run-map.js'

/** What a request wants to do with a run; `start` has no execId yet. */
export type RunAction =
  'start' | 'read' | 'events' | 'steer' | 'followUp' | 'abort' | 'approve' | 'reject' | 'edit' | 'answer'

/** The app's decision for one request: false answers 404 `not_found`, like an unknown id. */
export type Authorize = (request: Request, target: { execId?: string; action: RunAction }) => boolean | Promise<boolean>

/** The caller's identity (a session's user id, a token's subject); undefined for an anonymous caller. */
export type OwnerOf = (request: Request) => string | undefined | Promise<string | undefined>

/**
 * Who may reach a run by id. With `owner`, a run started through the routes belongs to the
 * caller that started it and only requests with the same owner reach it; with `authorize`, the app
 * decides each request; with both, a request must pass both. One of them is required.
 */
export type RunAccess = { authorize?: Authorize; owner?: OwnerOf }

/** Throws `invalid_options` unless access says who may reach runs (`authorize: () => true` for one user). */
export function checkAccess(access: RunAccess, where: string): void {
  const { authorize, owner } = access
  if (authorize !== undefined && typeof authorize !== 'function')
    throw new NestorError('invalid_options', `${where}: authorize must be a function (request, { execId, action })`)
  if (owner !== undefined && typeof owner !== 'function')
    throw new NestorError('invalid_options', `${where}: owner must be a function (request) => string | undefined`)
  if (!authorize && !owner)
    throw new NestorError(
      'invalid_options',
      `${where} needs authorize(request, { execId, action }) or owner(request): without them anyone who learns ` +
        'a run id reaches the run. A single-user app says so with authorize: () => true',
    )
}

/** The owners of runs started through the routes, per runtime (every route of a runtime shares it). */
const books = new WeakMap<Runtime, RunMap<string | undefined>>()

export function ownerBook(runtime: Runtime): RunMap<string | undefined> {
  let book = books.get(runtime)
  if (!book) books.set(runtime, (book = new RunMap(runtime)))
  return book
}

/**
 * Records who owns a run started outside the routes (a chat POST of your own), so `owner`-checked
 * routes let that caller, and only that caller, reach it.
 */
export function recordOwner(runtime: Runtime, execId: string, owner: string | undefined): void {
  ownerBook(runtime).set(execId, execId, owner)
}

/** Who the request comes from: `ok` false when `owner` is required and names no one (or throws). */
export type Caller = { ok: boolean; owner: string | undefined }

/** Asks the app's `owner` hook once; foreign code: one that throws refuses the request. */
export async function callerOf(request: Request, access: RunAccess): Promise<Caller> {
  if (!access.owner) return { ok: true, owner: undefined }
  try {
    const owner = await access.owner(request)
    return typeof owner === 'string' && owner !== '' ? { ok: true, owner } : { ok: false, owner: undefined }
  } catch {
    return { ok: false, owner: undefined }
  }
}

/**
 * Whether the request may do `action` on run `execId` (none for `start`). `caller`, when the
 * request's owner is already known (a list checks many runs for one request), saves asking again.
 * The app's hooks are foreign code: one that throws refuses the request rather than escaping.
 */
export async function allowed(
  request: Request,
  access: RunAccess,
  runtime: Runtime,
  action: RunAction,
  execId?: string,
  caller?: Caller,
): Promise<Caller> {
  const who = caller ?? (await callerOf(request, access))
  if (!who.ok) return who
  const { owner } = who
  if (access.owner && execId !== undefined) {
    const entry = ownerBook(runtime).get(execId)
    if (!entry || entry.value !== owner) return { ok: false, owner }
  }
  try {
    const target = execId === undefined ? { action } : { execId, action }
    if (access.authorize && (await access.authorize(request, target)) !== true) return { ok: false, owner }
    return { ok: true, owner }
  } catch {
    return { ok: false, owner: undefined }
  }
}

/** The one answer for an unknown run and for a run the caller may not reach, so ids cannot be probed. */
export const notFound = (execId: string | undefined): Response =>
  errorResponse(404, 'not_found', execId === undefined ? 'not found' : `no run ${execId} here`)
