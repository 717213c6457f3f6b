import { Runtime } from '@nestor/core'
import { replay, scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { tempDir } from '../support/cassette-files.js'

const Answer = z.object({ city: z.string(), score: z.number() })

describe('typed output with record/replay cassettes', () => {
  it('replays the same validated output offline, and another schema is a replay miss', async () => {
    const dir = await tempDir()
    const model = scripted(['{"city":"Faro","score":"high"}', '{"city":"Faro","score":9}'])
    const recorded = await new Runtime({ provider: replay({ provider: model, dir, mode: 'record' }), model: 'm' }).exec(
      'Rate Faro',
      { output: Answer },
    )
    expect(recorded.output).toEqual({ city: 'Faro', score: 9 })

    const offline = new Runtime({ provider: replay({ dir, mode: 'strict' }), model: 'm' })
    const replayed = await offline.exec('Rate Faro', { output: Answer })
    expect(replayed.output).toEqual(recorded.output)
    expect(replayed.iterationsUsed).toBe(2)

    const other = await offline.exec('Rate Faro', { output: z.object({ city: z.string() }) })
    expect(other.status).toBe('failed')
    expect(other.error?.code).toBe('replay_miss')
  })
})
