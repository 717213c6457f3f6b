import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, fileJournal, type RunState } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'

describe('a paused run whose journal is a file', () => {
  it('keeps the journal’s id in its state instead of the entries, and resumes only when given that journal again', async () => {
    const file = join(scratchDir('nestor-pause-'), 'run.ndjson')
    const ran: string[] = []
    const deploy = defineTool({
      name: 'deploy',
      description: 'd',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => (ran.push('deploy'), 'deployed'),
    })
    const provider = scripted([calls({ name: 'deploy', id: 'd1' }), 'done'])
    const runtime = new Runtime({ provider, model: 'm' })
    const paused = await runtime.exec('go', { tools: [deploy], journal: fileJournal(file), runId: 'run-7' })
    expect(paused.status).toBe('paused')
    const state = JSON.parse(JSON.stringify(paused.pending!.state)) as RunState
    expect(state.journal).toEqual({
      runId: 'run-7',
      id: `file:${file}`,
      waiting: [{ toolCallId: 'd1', key: 'root#1:decision:d1' }],
    })

    expect(() => runtime.resume(state, { approve: ['d1'] }, { tools: [deploy] })).toThrow(
      expect.objectContaining({ code: 'invalid_state', message: expect.stringContaining(`file:${file}`) }),
    )
    const done = await runtime.resume(state, { approve: ['d1'] }, { tools: [deploy], journal: fileJournal(file) })
    expect(done.status).toBe('completed')
    expect(ran).toEqual(['deploy'])
    // The decision and what followed went to the file: a crash now would replay them.
    const keys = (await fileJournal(file).load('run-7')).map((e) => e.key)
    expect(keys).toEqual(['root#1:model', 'root#1:decision:d1', 'root#1:tool:d1', 'root#2:model'])
  })
})
