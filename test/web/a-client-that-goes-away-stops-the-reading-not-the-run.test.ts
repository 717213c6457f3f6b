import type { AgentEvent, ExecRun } from '@nestor/core'
import { ApprovalGate, pipeToNodeResponse, type RunSource } from '@nestor/web'
import { afterEach, describe, expect, it } from 'vitest'
import { serve, startTrip, tripRuntime } from '../support/trip-web.js'

const closers: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
})

/** The run as a source that records whether the stream let go of its iterator. */
function watched(run: ExecRun): RunSource & { released: boolean } {
  const source = {
    execId: run.execId,
    result: run.result,
    released: false,
    abort: (reason?: unknown) => run.abort(reason),
    [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
      const inner = run[Symbol.asyncIterator]()
      return {
        next: () => inner.next(),
        return: () => {
          source.released = true
          return inner.return ? inner.return() : Promise.resolve({ value: undefined, done: true as const })
        },
      }
    },
  }
  return source
}

async function disconnectAtApproval(abortOnCancel: boolean) {
  const gate = new ApprovalGate()
  const runtime = tripRuntime({ approve: gate.approve })
  const run = startTrip(runtime)
  const source = watched(run)
  let piped: Promise<void> = Promise.resolve()
  const { url, close } = await serve(
    (_req, res) => (piped = pipeToNodeResponse(source, res, { heartbeatMs: 0, abortOnCancel })),
  )
  closers.push(close)
  const client = new AbortController()
  const response = await fetch(url, { signal: client.signal })
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  let text = ''
  while (!text.includes('event: approval_required')) text += new TextDecoder().decode((await reader.read()).value)
  client.abort()
  await piped
  return { run, runtime, gate, source }
}

describe('pipeToNodeResponse when the client goes away', () => {
  it('stops reading the run, and the run goes on to its end', async () => {
    const { run, runtime, gate, source } = await disconnectAtApproval(false)
    expect(source.released).toBe(true)
    expect(runtime.attach(run.execId, { after: 'latest' })?.live).toBe(true)
    gate.decide(run.execId, 'call_save', { approved: true })
    expect((await run).status).toBe('completed')
  })

  it('aborts the run when told to (abortOnCancel)', async () => {
    const { run, source } = await disconnectAtApproval(true)
    expect(source.released).toBe(true)
    expect((await run).status).toBe('aborted')
  })
})
