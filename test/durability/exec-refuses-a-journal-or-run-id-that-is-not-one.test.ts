import { describe, expect, it } from 'vitest'
import { Runtime, memoryJournal } from '@nestor/core'
import { scripted } from '@nestor/providers'

describe('the journal options of exec()', () => {
  const runtime = new Runtime({ provider: scripted(['ok']), model: 'm' })

  it('refuses a journal without load and append, synchronously, with invalid_options naming the key', () => {
    expect(() => runtime.exec('go', { journal: { load: async () => [] } as never, runId: 'r' })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringMatching(/journal/) }),
    )
  })

  it('refuses a journal without a run id, naming the fix: such a journal could never be replayed', () => {
    const journal = memoryJournal()
    expect(() => runtime.exec('go', { journal })).toThrow(
      expect.objectContaining({
        code: 'invalid_options',
        message: expect.stringMatching(
          /invalid option runId: expected a run id with journal.*exec\(input, \{ journal, runId \}\)/,
        ),
      }),
    )
  })

  it('refuses an empty run id', () => {
    expect(() => runtime.exec('go', { journal: memoryJournal(), runId: '' })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringMatching(/runId/) }),
    )
  })
})
