import { toSSE } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { startTrip, tripRuntime } from '../support/trip-web.js'

describe('heartbeats', () => {
  it('sends a ": heartbeat" comment while the run is quiet (here: waiting for an approval)', async () => {
    let decide: (approved: boolean) => void = () => {}
    const runtime = tripRuntime({ approve: () => new Promise<boolean>((resolve) => (decide = resolve)) })
    const run = startTrip(runtime)
    const reader = toSSE(run, { heartbeatMs: 20 }).getReader()
    const decoder = new TextDecoder()
    let text = ''
    let heartbeats = 0
    // Read until the approval is asked for, then until two heartbeats arrived during the wait.
    while (heartbeats < 2) {
      const { value, done } = await reader.read()
      if (done) throw new Error('the stream ended before any heartbeat')
      const frame = decoder.decode(value)
      text += frame
      if (frame === ': heartbeat\n\n' && text.includes('event: approval_required')) heartbeats++
    }
    expect(text).toContain('event: approval_required')
    decide(true)
    for (;;) if ((await reader.read()).done) break
    expect((await run).status).toBe('completed')
  })

  it('sends none when heartbeatMs is 0', async () => {
    const run = startTrip(tripRuntime())
    const text = await new Response(toSSE(run, { heartbeatMs: 0 })).text()
    expect(text).not.toContain(': heartbeat')
  })
})
