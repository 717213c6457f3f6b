import type { AgentEvent } from '@nestor/core'
import { ApprovalGate, handleControl, resumeResponse, runRoutes, toNodeListener, type RunAction } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

type Answer = { status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> }
const answer = async (response: Response): Promise<Answer> => ({
  status: response.status,
  body: (await response.json()) as Answer['body'],
})
const cookie = (user: string) => ({ cookie: `session=${user}` })
const sessionOf = (request: Request) => /(?:^|;\s*)session=(\w+)/.exec(request.headers.get('cookie') ?? '')?.[1]

/** The trip behind owner-checked routes; alice's run waits at its approval. */
async function twoUsers() {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve })
  const routes = runRoutes({ runtime, approvals: gate, owner: sessionOf, start: () => startTrip(runtime) })
  const { url, close } = await serve(toNodeListener(routes))
  closers.push(close)
  const as = (user: string) => ({
    get: async (path: string) => answer(await fetch(`${url}${path}`, { headers: cookie(user) })),
    post: async (path: string, body: unknown) => answer(await fetch(`${url}${path}`, jsonPost(body, cookie(user)))),
  })
  const started = await as('alice').post('/runs', { input: 'go' })
  expect(started.status).toBe(201)
  const execId = started.body.execId as string
  const events: AgentEvent[] = []
  const collected = (async () => {
    for await (const event of runtime.attach(execId) as AsyncIterable<AgentEvent>) events.push(event)
  })()
  while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
  return { url, runtime, gate, execId, events, collected, alice: as('alice'), mallory: as('mallory') }
}

const CONTROLS: [string, unknown][] = [
  ['steer', { message: 'send me the brief' }],
  ['followUp', { message: 'and then delete it' }],
  ['approve', { toolCallId: 'call_save' }],
  ['reject', { toolCallId: 'call_save', reason: 'mine now' }],
  ['edit', { toolCallId: 'call_save', args: { title: 'pwned', body: 'x' } }],
  ['abort', { reason: 'bye' }],
]

describe('a run started through owner-checked routes belongs to its owner', () => {
  it("answers another user's read, events and every control of the run with the 404 of an unknown id, and the run goes on untouched", async () => {
    const { runtime, gate, execId, events, collected, alice, mallory } = await twoUsers()
    const unknownId = `${execId.slice(0, -4)}beef`
    const before = (runtime.attach(execId, { after: 'latest' }) as { position: number }).position
    const pendingBefore = gate.pending(execId)

    const attempts: [string, Answer, Answer][] = [
      ['read', await mallory.get(`/runs/${execId}`), await mallory.get(`/runs/${unknownId}`)],
      ['events', await mallory.get(`/runs/${execId}/events`), await mallory.get(`/runs/${unknownId}/events`)],
    ]
    for (const [action, body] of CONTROLS)
      attempts.push([
        action,
        await mallory.post(`/runs/${execId}/${action}`, body),
        await mallory.post(`/runs/${unknownId}/${action}`, body),
      ])
    for (const [action, refused, unknown] of attempts) {
      expect({ action, status: refused.status, code: refused.body.error?.code }).toEqual({
        action,
        status: 404,
        code: 'not_found',
      })
      // Word for word the unknown id's answer, but for the id itself: nothing tells them apart.
      expect(refused.body.error?.message.replace(execId, 'ID')).toBe(
        unknown.body.error?.message.replace(unknownId, 'ID'),
      )
    }
    // Nothing reached the run: no event, the same call still waiting.
    expect((runtime.attach(execId, { after: 'latest' }) as { position: number }).position).toBe(before)
    expect(gate.pending(execId)).toEqual(pendingBefore)
    expect((await mallory.get('/runs')).body).toEqual({ runs: [] })
    expect((await alice.get('/runs')).body).toEqual({ runs: [{ execId, live: true }] })

    expect((await alice.post(`/runs/${execId}/approve`, { toolCallId: 'call_save' })).status).toBe(202)
    await collected
    const result = await (
      runtime.attach(execId, { after: 'latest' }) as {
        result: Promise<{ status: string; receipts: { toolName: string; status: string }[] }>
      }
    ).result
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['research', 'ok'],
      ['budget', 'ok'],
      ['save_brief', 'ok'],
    ])
    const userMessages = events.filter((e) => e.type === 'message_start' && e.depth === 0 && e.message.role === 'user')
    expect(userMessages).toHaveLength(1)
    const saved = events.find((e) => e.type === 'tool_end' && e.toolName === 'save_brief')
    expect(JSON.stringify(saved)).toContain('saved brief \\"Lisbon in May\\"')
  })

  it("lists a caller's runs asking the owner hook once per request, however many runs are kept", async () => {
    const runtime = tripRuntime({ approve: () => true })
    let asked = 0
    const owner = (request: Request) => (asked++, sessionOf(request))
    const routes = runRoutes({ runtime, owner, start: () => startTrip(runtime) })
    const { url, close } = await serve(toNodeListener(routes))
    closers.push(close)
    const started: string[] = []
    for (const user of ['alice', 'alice', 'alice', 'bob', 'bob']) {
      const response = await fetch(`${url}/runs`, jsonPost({ input: 'go' }, cookie(user)))
      started.push(((await response.json()) as { execId: string }).execId)
    }
    asked = 0
    const listed = await answer(await fetch(`${url}/runs`, { headers: cookie('alice') }))
    expect(asked).toBe(1)
    expect((listed.body.runs as { execId: string }[]).map((r) => r.execId).sort()).toEqual(started.slice(0, 3).sort())
  })

  it('refuses a caller without a session everything, starting a run included', async () => {
    const { url, execId } = await twoUsers()
    const start = await answer(await fetch(`${url}/runs`, jsonPost({ input: 'go' })))
    expect(start).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect((await answer(await fetch(`${url}/runs/${execId}`))).status).toBe(404)
    expect((await answer(await fetch(`${url}/runs`))).body).toEqual({ runs: [] })
  })
})

describe('authorize decides each request', () => {
  it('is asked with the exec id and the action of every route; false, or a hook that throws, answers 404', async () => {
    const gate = new ApprovalGate()
    const runtime = tripRuntime({ approve: gate.approve })
    const asked: { execId?: string; action: RunAction }[] = []
    let verdict: () => boolean = () => true
    const routes = runRoutes({
      runtime,
      approvals: gate,
      start: () => startTrip(runtime),
      authorize: (_request, target) => {
        asked.push(target)
        return verdict()
      },
    })
    const { url, close } = await serve(toNodeListener(routes))
    closers.push(close)
    const { execId } = (await (await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).json()) as { execId: string }
    while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
    expect(asked).toEqual([{ action: 'start' }])

    verdict = () => false
    const refused = [await fetch(`${url}/runs/${execId}`), await fetch(`${url}/runs/${execId}/events`)]
    for (const [action, body] of CONTROLS) refused.push(await fetch(`${url}/runs/${execId}/${action}`, jsonPost(body)))
    verdict = () => {
      throw new Error('the session store is down: postgres://admin:hunter2@db')
    }
    refused.push(await fetch(`${url}/runs/${execId}/abort`, jsonPost({})))
    for (const response of refused)
      expect(await answer(response)).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    expect(asked.slice(1).map((a) => [a.execId, a.action])).toEqual(
      [['read'], ['events'], ...CONTROLS.map(([action]) => [action]), ['abort']].map(([action]) => [execId, action]),
    )
    expect(gate.pending(execId)).toHaveLength(1)
    expect(runtime.attach(execId, { after: 'latest' })?.live).toBe(true)
    gate.decide(execId, 'call_save', { approved: true })
  })

  it('runRoutes, handleControl and resumeResponse without authorize or owner refuse to run with invalid_options', async () => {
    const runtime = tripRuntime()
    expect(() => runRoutes({ runtime })).toThrow(expect.objectContaining({ code: 'invalid_options' }))
    const request = new Request('http://127.0.0.1/runs/x/abort', jsonPost({}))
    await expect(handleControl(request, { runtime, execId: 'x', action: 'abort' })).rejects.toMatchObject({
      code: 'invalid_options',
    })
    await expect(resumeResponse(runtime, 'x', new Request('http://127.0.0.1/'), {})).rejects.toMatchObject({
      code: 'invalid_options',
    })
    expect(() => runRoutes({ runtime, authorize: () => true })).not.toThrow()
  })

  it('handleControl and resumeResponse check access themselves when routed by hand', async () => {
    const runtime = tripRuntime({ approve: () => new Promise(() => {}) })
    const run = startTrip(runtime)
    const deny = { authorize: () => false }
    const events = await resumeResponse(runtime, run.execId, new Request('http://127.0.0.1/'), deny)
    expect(await answer(events)).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })
    const abort = await handleControl(new Request('http://127.0.0.1/', jsonPost({})), {
      runtime,
      execId: run.execId,
      action: 'abort',
      ...deny,
    })
    expect(abort.status).toBe(404)
    expect(runtime.attach(run.execId, { after: 'latest' })?.live).toBe(true)
    run.abort()
    await run
  })
})
