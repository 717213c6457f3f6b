import { request as httpRequest } from 'node:http'
import { readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { studio, type Studio } from '@nestor/studio'
import { fileJournals } from '@nestor/studio'
import { tripApp, waitFor } from './support.js'

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A raw request, so Host and Origin are exactly what a hostile page or client would send. */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const target = new URL(url)
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string; message: string } }).error

describe('the studio server', () => {
  const app = tripApp()
  let served: Studio
  let base: URL

  beforeAll(async () => {
    served = await studio(app.runtime, {
      port: 0,
      approvals: app.gate,
      recorded: fileJournals(app.dir),
      maxBodyBytes: 4096,
    })
    base = new URL(served.url)
  })
  afterAll(async () => {
    await served.close()
    rmSync(app.dir, { recursive: true, force: true })
  })

  it('binds 127.0.0.1 behind an unguessable token and serves its page there with a strict policy', async () => {
    expect(base.hostname).toBe('127.0.0.1')
    const token = base.pathname.split('/')[1]!
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/)
    const page = await raw(served.url)
    expect(page.status).toBe(200)
    expect(page.body).toContain('<title>Nestor Studio</title>')
    expect(page.headers['content-security-policy']).toContain("default-src 'self'")
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    expect((await raw(`${served.url}app.js`)).headers['content-type']).toContain('text/javascript')
    // The exec tree is @nestor/web's one component (the eval report inlines the same files).
    const web = join(dirname(createRequire(import.meta.url).resolve('@nestor/web/package.json')), 'src/browser')
    for (const name of ['exec-tree.js', 'exec-tree.css'])
      expect((await raw(`${served.url}${name}`)).body).toBe(readFileSync(join(web, name), 'utf8'))
    await expect(studio(app.runtime, { port: 70000 })).rejects.toMatchObject({ code: 'invalid_options' })
    // A second studio has another token.
    const other = await studio(app.runtime, { port: 0 })
    expect(new URL(other.url).pathname).not.toBe(base.pathname)
    await other.close()
  })

  it('answers a request without the token, or with a wrong one, 404 in JSON and reveals nothing', async () => {
    const token = base.pathname.split('/')[1]!
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
    for (const path of [
      '/',
      '/api/overview',
      `/${wrong}/`,
      `/${wrong}/api/overview`,
      `/${token.slice(1)}/api/overview`,
    ]) {
      const answer = await raw(`${base.origin}${path}`)
      expect(answer.status, path).toBe(404)
      expect(answer.headers['content-type']).toContain('application/json')
      expect(errorOf(answer)).toEqual({ code: 'not_found', message: 'not found' })
      expect(answer.body).not.toContain(token)
    }
  })

  it('refuses a foreign Host or Origin with a JSON 403 before anything runs, even with the token', async () => {
    const run = app.start('hostile-1')
    const execId = run.execId
    await new Promise((resolve) => setTimeout(resolve, 0))
    const overview = `${served.url}api/overview`
    const hosts = ['evil.example', `evil.example:${base.port}`, `localhost:${Number(base.port) + 1}`]
    for (const host of hosts) {
      const answer = await raw(overview, { headers: { host } })
      expect(answer.status, host).toBe(403)
      expect(errorOf(answer).code).toBe('forbidden')
    }
    for (const origin of ['http://evil.example', `http://127.0.0.1:${Number(base.port) + 1}`, 'null']) {
      const steer = await raw(`${served.url}api/runs/${execId}/abort`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json' },
        body: '{}',
      })
      expect(steer.status, origin).toBe(403)
      expect(errorOf(steer).code).toBe('forbidden')
    }
    // The names the server is reached by pass: its own origin, and localhost on its port.
    expect((await raw(overview, { headers: { origin: base.origin } })).status).toBe(200)
    expect((await raw(overview, { headers: { host: `localhost:${base.port}` } })).status).toBe(200)
    // Nothing reached the run: it waits for its approval, and the page can decide it.
    const [waiting] = await waitFor(() => app.gate.pending(execId))
    expect(waiting!.toolName).toBe('book')
    const approve = await raw(`${served.url}api/runs/${execId}/approve`, {
      method: 'POST',
      headers: { origin: base.origin, 'content-type': 'application/json' },
      body: JSON.stringify({ toolCallId: waiting!.toolCallId }),
    })
    expect(approve.status).toBe(202)
    expect((await run).text).toBe('trip: researched: lisbon is sunny; booked Alfama')
  })

  it('answers an oversized, non-JSON or malformed body and an unknown route with a JSON error', async () => {
    const big = await raw(`${served.url}api/recorded/x/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ at: 'root#1:model', edit: { message: 'x'.repeat(5000) } }),
    })
    expect(big.status).toBe(413)
    expect(errorOf(big).code).toBe('too_large')
    const form = await raw(`${served.url}api/recorded/x/fork`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    })
    expect(form.status).toBe(415)
    const bad = await raw(`${served.url}api/recorded/x/fork`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"at":',
    })
    expect([bad.status, errorOf(bad).code]).toEqual([400, 'bad_json'])
    const unknown = await raw(`${served.url}api/nothing`)
    expect([unknown.status, errorOf(unknown).code]).toEqual([404, 'not_found'])
    const noRun = await raw(`${served.url}api/runs/exec_nope/events`)
    expect([noRun.status, errorOf(noRun).code]).toEqual([404, 'not_found'])
  })

  it('resumes a run that paused for approval (a runtime without approve) with the decisions posted', async () => {
    const paused = tripApp({ pause: true })
    const served = await studio(paused.runtime, { port: 0, resumeOptions: () => ({ tools: paused.tools }) })
    try {
      const run = paused.runtime.exec('Plan Lisbon', { tools: paused.tools })
      const ended = await run
      expect(ended.status).toBe('paused')
      const post = (execId: string, body: unknown) =>
        raw(`${served.url}api/runs/${execId}/resume`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      const unknown = await post(run.execId, { approve: ['call_nope'] })
      expect([unknown.status, errorOf(unknown).code]).toEqual([400, 'invalid_state'])
      expect(errorOf(unknown).message).toContain('call_nope')
      const resumed = await post(run.execId, { edit: [{ toolCallId: 'call_book', args: { hotel: 'Baixa' } }] })
      expect(resumed.status).toBe(201)
      const { execId } = JSON.parse(resumed.body) as { execId: string }
      expect((await paused.runtime.attach(execId)!.result).text).toBe('trip: researched: lisbon is sunny; booked Baixa')
      const done = await post(execId, { approve: [] })
      expect([done.status, errorOf(done).code]).toEqual([409, 'not_paused'])
    } finally {
      await served.close()
      rmSync(paused.dir, { recursive: true, force: true })
    }
  })
})
