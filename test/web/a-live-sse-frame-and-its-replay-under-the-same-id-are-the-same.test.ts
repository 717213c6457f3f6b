import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { toSSE } from '@nestor/web'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call } from '../support/agent-runs.js'
import { parseFrames, readAll } from '../support/trip-web.js'

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
})

// A frame's id names one event: a client that got it live and one that reconnects and gets it
// again from the replay must read the same bytes (a UI drawing message_start's content and then
// its deltas would otherwise show the text twice).
describe('SSE replay', () => {
  it('sends every event again with the very data it had live, message_start of a streamed reply included', async () => {
    const runtime = new Runtime({ provider: scripted([call('add', { a: 2, b: 3 }), 'The sum is 5.']), model: 'm' })
    const run = runtime.exec('2 + 3?', { tools: [add] })
    const live = parseFrames(await readAll(toSSE(run, { heartbeatMs: 0 }))).filter((f) => f.id !== undefined)
    const attached = runtime.attach(run.execId, { after: 0 })
    expect(attached).toBeDefined()
    const replayed = parseFrames(await readAll(toSSE(attached!, { heartbeatMs: 0 }))).filter((f) => f.id !== undefined)
    expect(replayed.map((f) => f.id)).toEqual(live.map((f) => f.id))
    expect(replayed).toEqual(live)
    const starts = live.filter((f) => f.event === 'message_start' && f.data?.includes('"role":"assistant"'))
    expect(starts).toHaveLength(2)
  })
})
