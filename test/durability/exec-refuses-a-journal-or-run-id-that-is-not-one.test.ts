import { describe, expect, it } from 'vitest'
import { Runtime, memoryJournal } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('the journal options of exec()', () => {
  const runtime = new Runtime({ provider: scripted(['ok']), model: 'm' })

  it('refuses a journal without load and append, synchronously, with invalid_options naming the key', () => {
    expect(() => runtime.exec('go', { journal: { load: async () => [] } as never })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringMatching(/journal/) }),
    )
  })

  it('refuses an empty run id', () => {
    expect(() => runtime.exec('go', { journal: memoryJournal(), runId: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringMatching(/runId/) }),
    )
  })
})
