import { NestorError, type ExecOptions, type ForkEdit, type ResumeDecisions, type Runtime } from '@nestor/core'
import { redactDeep } from '@nestor/core/integration-kit'
import { errorResponse, handleControl, jsonBody, resumeResponse, type ApprovalGate } from '@nestor/web'
import type { LiveRuns } from './live-runs.js'
import { forkRunId, readRecorded, type RecordedRuns } from './recorded.js'
import { readReport } from './reports.js'

/** What the studio's API serves: a live runtime (or none, for recorded runs alone), stores, reports. */
export type StudioSource = {
  runtime?: Runtime
  live?: LiveRuns
  approvals?: ApprovalGate
  recorded: RecordedRuns[]
  reports: string[]
  forkOptions?: (runId: string) => ExecOptions
  resumeOptions?: () => ResumeOptions
  maxBodyBytes: number
}

/** What `runtime.resume` takes beside the state and the decisions: the tools, an external journal. */
export type ResumeOptions = Pick<ExecOptions, 'tools' | 'journal'>

/** How many recorded runs a store lists at most (the newest). */
const LISTED = 1000
// The token in the URL is the access check: whoever holds it is the developer at this machine.
const everyone = { authorize: () => true }

/** The `api/…` routes (segments after `api`); undefined for a path it does not know. */
export async function api(request: Request, path: string[], source: StudioSource): Promise<Response | undefined> {
  const [section, id, action, ...rest] = path
  if (rest.length) return undefined
  const get = request.method === 'GET'
  if (section === 'overview' && id === undefined && get) return overview(source)
  if (section === 'runs' && id !== undefined) {
    const { runtime } = source
    if (!runtime) return errorResponse(404, 'no_runtime', 'this studio shows recorded runs only')
    if (action === 'events' && get) return resumeResponse(runtime, id, request, everyone)
    if (action === 'resume' && request.method === 'POST') return resume(request, runtime, id, source)
    if (action !== undefined && action !== 'events')
      return handleControl(request, {
        ...everyone,
        runtime,
        execId: id,
        action,
        maxBodyBytes: source.maxBodyBytes,
        ...(source.approvals && { approvals: source.approvals }),
      })
  }
  if (section === 'recorded' && id !== undefined) {
    if (action === undefined && get) {
      const read = await readRecorded(source.recorded, id)
      if (!read) return errorResponse(404, 'not_found', `no recorded run ${id} here`)
      // A journal keeps what replays need; the page shows it redacted as the app's events are.
      return Response.json(source.runtime ? redactDeep(read, secretsOf(source.runtime)) : read)
    }
    if (action === 'fork' && request.method === 'POST') return fork(request, id, source)
  }
  if (section === 'reports' && id !== undefined && action === undefined && get) {
    const path = /^\d+$/.test(id) ? source.reports[Number(id)] : undefined
    if (path === undefined) return errorResponse(404, 'not_found', `no report ${id} here`)
    return Response.json(await readReport(path))
  }
  return undefined
}

async function overview(source: StudioSource): Promise<Response> {
  const recorded = []
  for (const store of source.recorded) {
    try {
      recorded.push(...(await store.list(LISTED)))
    } catch (error) {
      recorded.push({ runId: '', source: 'journal', problem: `could not be listed: ${messageOf(error)}` })
    }
  }
  return Response.json({
    live: source.runtime !== undefined,
    approvals: source.approvals !== undefined,
    fork: source.runtime !== undefined,
    runs: source.live?.list() ?? [],
    recorded,
    reports: source.reports.map((path, index) => ({ index, path })),
  })
}

const EDITS = ['toolResult', 'message', 'decision'] as const

/** `POST api/recorded/{runId}/fork` `{ at, edit }` → 201 `{ execId, runId }`: the fork runs live. */
async function fork(request: Request, runId: string, source: StudioSource): Promise<Response> {
  const body = await jsonBody(request, source.maxBodyBytes)
  if (body instanceof Response) return body
  const { runtime } = source
  if (!runtime) return errorResponse(404, 'no_runtime', 'forking needs the app: start the studio with studio(runtime)')
  const { at, edit } = body
  const kinds = typeof edit === 'object' && edit !== null ? EDITS.filter((k) => k in edit) : []
  if (typeof at !== 'string' || at === '' || kinds.length !== 1)
    return errorResponse(
      400,
      'bad_request',
      'fork takes { "at": a journal key, "edit": { "toolResult" } or { "message" } or { "decision" } }',
    )
  const store = await findStore(source.recorded, runId)
  const journal = await store?.journal(runId)
  if (!store || !journal) return errorResponse(404, 'not_found', `no recorded run ${runId} here`)
  const newRunId = forkRunId()
  const own = store.create?.(newRunId)
  try {
    const run = runtime.fork(
      { journal, runId, at, edit: edit as ForkEdit },
      { ...source.forkOptions?.(newRunId), runId: newRunId, ...(own && { journal: own }) },
    )
    source.live?.forked(run.execId, runId)
    return Response.json({ execId: run.execId, runId: newRunId }, { status: 201 })
  } catch (error) {
    // The edit was refused (invalid_options names the step); anything else stays on the server.
    if (NestorError.isInstance(error) && error.code === 'invalid_options')
      return errorResponse(400, 'invalid_options', error.message)
    return errorResponse(500, 'internal', 'the fork could not be started')
  }
}

/**
 * `POST api/runs/{execId}/resume` `{ approve?, reject?, edit? }` (`ResumeDecisions`) → 201
 * `{ execId }`: a run that paused for approval (a runtime without an `approve` handler) goes on
 * with the page's decisions, as `runtime.resume` would in the app.
 */
async function resume(request: Request, runtime: Runtime, execId: string, source: StudioSource): Promise<Response> {
  const body = await jsonBody(request, source.maxBodyBytes)
  if (body instanceof Response) return body
  const run = runtime.attach(execId, { after: 'latest' })
  if (!run) return errorResponse(404, 'not_found', `no run ${execId} here`)
  const result = run.live ? undefined : await run.result
  if (!result?.pending)
    return errorResponse(409, 'not_paused', `run ${execId} is not paused for approval: decide its calls as they wait`)
  try {
    const resumed = runtime.resume(result.pending.state, body as ResumeDecisions, source.resumeOptions?.() ?? {})
    return Response.json({ execId: resumed.execId }, { status: 201 })
  } catch (error) {
    // A decision for a call that does not wait, a state already resumed: the message says which.
    if (NestorError.isInstance(error) && ['invalid_options', 'invalid_state'].includes(error.code))
      return errorResponse(400, error.code, error.message)
    return errorResponse(500, 'internal', 'the run could not be resumed')
  }
}

async function findStore(stores: RecordedRuns[], runId: string): Promise<RecordedRuns | undefined> {
  for (const store of stores) if (await store.journal(runId).catch(() => undefined)) return store
  return undefined
}

/** The strings the runtime's events hide: its `secrets` and its provider's key. */
const secretsOf = (runtime: Runtime): string[] => [
  ...(runtime.options.secrets ?? []),
  ...(runtime.options.provider.secrets?.() ?? []),
]

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
