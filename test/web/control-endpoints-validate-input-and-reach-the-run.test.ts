import type { AgentEvent } from '@nestor/core'
import { ApprovalGate, runRoutes, toNodeListener } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { jsonPost, serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

async function setup() {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve })
  const { url, close } = await serve(
    toNodeListener(runRoutes({ runtime, authorize: () => true, approvals: gate, start: () => startTrip(runtime) })),
  )
  closers.push(close)
  const { execId } = (await (await fetch(`${url}/runs`, jsonPost({ input: 'go' }))).json()) as { execId: string }
  const events: AgentEvent[] = []
  const attached = runtime.attach(execId) as AsyncIterable<AgentEvent>
  const collected = (async () => {
    for await (const event of attached) events.push(event)
  })()
  const waiting = async () => {
    while (gate.pending(execId).length === 0) await new Promise((r) => setTimeout(r, 10))
  }
  const post = async (action: string, body: unknown) => {
    const response = await fetch(`${url}/runs/${execId}/${action}`, jsonPost(body))
    return {
      status: response.status,
      body: (await response.json()) as { ok?: boolean; error?: { code: string; message: string } },
    }
  }
  return { url, execId, runtime, gate, events, collected, waiting, post }
}

describe('control endpoints', () => {
  it('answer 400 with a clear body for bad JSON and for missing or wrong fields', async () => {
    const { post, waiting, gate, execId } = await setup()
    await waiting()
    expect(await post('steer', '{not json')).toMatchObject({ status: 400, body: { error: { code: 'bad_json' } } })
    expect(await post('steer', '[1]')).toMatchObject({ status: 400, body: { error: { code: 'bad_request' } } })
    expect(await post('steer', { text: 'hi' })).toMatchObject({
      status: 400,
      body: { error: { message: 'steer needs { "message": a non-empty string }' } },
    })
    expect(await post('approve', {})).toMatchObject({
      status: 400,
      body: { error: { message: 'approve needs { "toolCallId": string }' } },
    })
    expect(await post('edit', { toolCallId: 'call_save', args: 'x' })).toMatchObject({ status: 400 })
    expect(await post('abort', { reason: 3 })).toMatchObject({ status: 400 })
    gate.decide(execId, 'call_save', { approved: true })
  })

  it('answer 404 for an unknown exec, an unknown action and a call that is not waiting; 409 once the run ended', async () => {
    const { url, post, waiting, collected } = await setup()
    const unknown = await fetch(`${url}/runs/exec_nope/steer`, jsonPost({ message: 'hi' }))
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_found')
    expect(await post('dance', {})).toMatchObject({ status: 404, body: { error: { code: 'unknown_action' } } })
    await waiting()
    expect(await post('approve', { toolCallId: 'call_other' })).toMatchObject({
      status: 404,
      body: { error: { code: 'not_waiting' } },
    })
    expect(await post('approve', { toolCallId: 'call_save' })).toMatchObject({ status: 202, body: { ok: true } })
    await collected
    expect(await post('steer', { message: 'too late' })).toMatchObject({
      status: 409,
      body: { error: { code: 'exec_ended' } },
    })
  })

  it('steer puts the message into the running loop before its next model call', async () => {
    const { post, waiting, events, collected, gate, execId } = await setup()
    await waiting()
    expect(await post('steer', { message: 'make it cheap' })).toMatchObject({ status: 202 })
    gate.decide(execId, 'call_save', { approved: true })
    await collected
    const steered = events.find(
      (e) =>
        e.type === 'message_start' &&
        e.depth === 0 &&
        e.message.role === 'user' &&
        e.message.content === 'make it cheap',
    )
    expect(steered).toBeDefined()
  })

  it('reject and edit decide the waiting call; abort ends the run', async () => {
    const rejected = await setup()
    await rejected.waiting()
    expect(await rejected.post('reject', { toolCallId: 'call_save', reason: 'not now' })).toMatchObject({ status: 202 })
    await rejected.collected
    const end = rejected.events.find((e) => e.type === 'tool_end' && e.toolName === 'save_brief')
    expect(end).toMatchObject({ isError: true, receipt: { status: 'rejected' } })

    const edited = await setup()
    await edited.waiting()
    expect(
      await edited.post('edit', { toolCallId: 'call_save', args: { title: 'Edited', body: 'short' } }),
    ).toMatchObject({ status: 202 })
    await edited.collected
    const saved = edited.events.find((e) => e.type === 'tool_end' && e.toolName === 'save_brief')
    expect(saved).toMatchObject({
      isError: false,
      result: { content: [{ type: 'text', text: 'saved brief "Edited" (5 characters)' }] },
    })

    const aborted = await setup()
    await aborted.waiting()
    expect(await aborted.post('abort', { reason: 'user left' })).toMatchObject({ status: 202 })
    await aborted.collected
    expect(aborted.events.at(-1)).toMatchObject({ type: 'agent_end', depth: 0, result: { status: 'aborted' } })
  })
})
