import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { NestorError, type ExecOptions, type Runtime } from '@nestor/core'
import { hostGuard } from '@nestor/core/integration-kit'
import { errorResponse, toNodeListener, type ApprovalGate } from '@nestor/web'
import { api, type ResumeOptions, type StudioSource } from './api.js'
import { asset } from './assets.js'
import { LiveRuns } from './live-runs.js'
import type { RecordedRuns } from './recorded.js'

export type StudioOptions = {
  /** Default 4983; 0 takes any free port (the URL says which). The studio binds 127.0.0.1 only. */
  port?: number
  /** The gate your runtime's `approve` is (`new Runtime({ approve: gate.approve })`): the page decides its calls. */
  approvals?: ApprovalGate
  /** Recorded runs to open and fork: `fileJournals(dir)`, `postgresJournals(pool)`, or several. */
  recorded?: RecordedRuns | RecordedRuns[]
  /** Eval report files (`nestor-eval`'s JSON) to open. */
  reports?: string[]
  /** The options a fork runs with (its tools, say), given its new run id. */
  forkOptions?: (runId: string) => ExecOptions
  /**
   * What a run paused for approval resumes with (its tools, an external journal): the page resumes
   * a paused run (a runtime without `approve`) with the decisions made on it. Default: the registry's tools.
   */
  resumeOptions?: () => ResumeOptions
  /** Request bodies over this many bytes answer 413. Default 1 MiB. */
  maxBodyBytes?: number
}

export type Studio = {
  /** The page, with its token: open it in your browser (it is the only way in). */
  url: string
  close(): Promise<void>
}

/**
 * Serves the studio page for this runtime on 127.0.0.1: its runs live, its approvals, steering and
 * forks. One line in an app in development: `await studio(runtime, { port: 4983 })`.
 */
export function studio(runtime: Runtime, options: StudioOptions = {}): Promise<Studio> {
  return serveStudio(runtime, options)
}

/** The studio with or without a runtime (`nestor-studio` opens recorded runs alone). */
export async function serveStudio(runtime: Runtime | undefined, options: StudioOptions): Promise<Studio> {
  const port = options.port ?? 4983
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new NestorError('invalid_options', `studio: port must be an integer from 0 to 65535, got ${String(port)}`)
  const live = runtime && new LiveRuns(runtime)
  const source: StudioSource = {
    ...(runtime && { runtime }),
    ...(live && { live }),
    ...(options.approvals && { approvals: options.approvals }),
    recorded: options.recorded === undefined ? [] : [options.recorded].flat(),
    reports: options.reports ?? [],
    ...(options.forkOptions && { forkOptions: options.forkOptions }),
    ...(options.resumeOptions && { resumeOptions: options.resumeOptions }),
    maxBodyBytes: options.maxBodyBytes ?? 1 << 20,
  }
  if (runtime) options.approvals?.watch(runtime)
  const token = randomBytes(24).toString('base64url')
  let guard: ReturnType<typeof hostGuard> | undefined
  const listener = toNodeListener(
    async (request) => {
      const refused = guard?.({ headers: { host: header(request, 'host'), origin: header(request, 'origin') } })
      if (refused !== undefined || !guard)
        return errorResponse(403, 'forbidden', `this server does not answer a request with this ${refused ?? 'host'}`)
      const path = new URL(request.url).pathname.split('/').slice(1)
      // Anything without the token is one answer, whatever the path: nothing to probe.
      if (!sameToken(path[0] ?? '', token)) return errorResponse(404, 'not_found', 'not found')
      if (path.length === 1) return Response.redirect(new URL(`/${token}/`, request.url), 308)
      const rest = decode(path.slice(1))
      if (!rest) return errorResponse(400, 'bad_path', 'the path is not valid percent-encoding')
      if (rest[0] === 'api') return api(request, rest.slice(1), source)
      if (request.method === 'GET' && rest.length === 1) return asset(rest[0] as string)
      return undefined
    },
    { maxBodyBytes: source.maxBodyBytes },
  )
  const server = createServer(listener)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve())
  })
  const bound = (server.address() as AddressInfo).port
  guard = hostGuard('127.0.0.1', bound, {})
  return {
    url: `http://127.0.0.1:${bound}/${token}/`,
    async close() {
      live?.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

const header = (request: Request, name: string): string | undefined => request.headers.get(name) ?? undefined

/** Compared in constant time: the token is the only secret between the page and the server. */
function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function decode(segments: string[]): string[] | undefined {
  try {
    return segments.map(decodeURIComponent)
  } catch {
    return undefined
  }
}
