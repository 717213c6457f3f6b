import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NestorError, Runtime, fileJournal, type JournalEntry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { scratchDir } from '../support/scratch-dir.js'

const path = () => join(scratchDir('nestor-journal-'), 'run.ndjson')
const entry = (n: number): JournalEntry => ({ key: `root#${n}:model`, kind: 'model', n })

describe('fileJournal(path)', () => {
  it('writes a header naming the run, then one JSON line per entry, and loads them back in order', async () => {
    const file = path()
    const journal = fileJournal(file)
    expect(await journal.load('run-a')).toEqual([])
    await journal.append('run-a', entry(1))
    await journal.append('run-a', entry(2))
    const lines = readFileSync(file, 'utf8').split('\n')
    expect(lines).toHaveLength(4) // header, two entries, the empty string after the last newline
    expect(JSON.parse(lines[0]!)).toEqual({ format: 'nestor-journal', runId: 'run-a' })
    expect(lines[3]).toBe('')
    expect(await fileJournal(file).load('run-a')).toEqual([entry(1), entry(2)])
  })

  it('ignores a torn last line (a write cut by a crash) and cuts it off before the next append', async () => {
    const file = path()
    await fileJournal(file).append('run-a', entry(1))
    appendFileSync(file, '{"key":"root#2:model","ki')
    const reopened = fileJournal(file)
    expect(await reopened.load('run-a')).toEqual([entry(1)])
    await reopened.append('run-a', entry(2))
    expect(readFileSync(file, 'utf8')).not.toContain('"ki{')
    expect(await fileJournal(file).load('run-a')).toEqual([entry(1), entry(2)])
  })

  it('refuses a file of another run with journal_mismatch naming both runs, and the exec on it calls no model', async () => {
    const file = path()
    await fileJournal(file).append('run-a', entry(1))
    const error: unknown = await fileJournal(file)
      .load('run-b')
      .catch((e: unknown) => e)
    expect(NestorError.isInstance(error) && error.code).toBe('journal_mismatch')
    expect((error as Error).message).toMatch(/belongs to run run-a, not to run run-b/)

    const provider = scripted(['never'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', {
      journal: fileJournal(file),
      runId: 'run-b',
    })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('journal_mismatch')
    expect(provider.requests).toHaveLength(0)
    await expect(fileJournal(file).append('run-b', entry(2))).rejects.toMatchObject({ code: 'journal_mismatch' })
  })

  it('refuses a damaged line before the last one, naming the file and the line', async () => {
    const file = path()
    writeFileSync(file, '{"format":"nestor-journal","runId":"run-a"}\nnot json\n{"key":"k","kind":"model"}\n')
    await expect(fileJournal(file).load('run-a')).rejects.toMatchObject({
      code: 'journal_mismatch',
      message: expect.stringMatching(/line 2 is not a JSON object/),
    })
  })
})
