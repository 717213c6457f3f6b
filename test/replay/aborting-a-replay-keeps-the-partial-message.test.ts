import type { Provider } from '@nestor/core'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { Runtime } from '@nestor/core'
import { replay, scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { drain, tempDir, weatherRequest } from '../support/cassette-files.js'

describe('replay: an abort mid-replay ends like a live abort', () => {
  it('stops with one aborted error event that keeps the text replayed so far', async () => {
    const dir = await tempDir()
    await drain(
      replay({ provider: scripted(['one two three four five six'], { chunkSize: 4 }), dir, mode: 'record' }),
      weatherRequest(),
    )
    const controller = new AbortController()
    const events: ModelEvent[] = []
    for await (const event of replay({ dir, mode: 'strict' }).stream(weatherRequest(), controller.signal)) {
      events.push(event)
      if (events.filter((e) => e.type === 'text_delta').length === 2) controller.abort()
    }
    const last = events.at(-1)
    expect(events.filter((e) => e.type === 'done' || e.type === 'error')).toHaveLength(1)
    expect(last?.type).toBe('error')
    if (last?.type !== 'error') return
    expect(last.error.code).toBe('aborted')
    expect(last.message.stopReason).toBe('aborted')
    expect(last.message.content).toEqual([{ type: 'text', text: 'one two ' }])
  })

  it('run.abort() during a paced replay resolves the exec as aborted', async () => {
    const dir = await tempDir()
    const runtime = (provider: Provider) => new Runtime({ provider, model: 'm' })
    await runtime(replay({ provider: scripted(['a long answer, streamed slowly']), dir, mode: 'record' })).exec('hi', {
      tools: [],
    })
    const run = runtime(replay({ dir, mode: 'strict', paceMs: 20 })).exec('hi', { tools: [] })
    setTimeout(() => run.abort(), 50)
    const result = await run
    expect(result.status).toBe('aborted')
  })
})
