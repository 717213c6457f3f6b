import { open, readFile, truncate } from 'node:fs/promises'
import { NestorError } from '../contract/errors.js'
import type { Journal, JournalEntry } from '../contract/journal.js'
import { serialise } from './memory-journal.js'

const FORMAT = 'nestor-journal'

/**
 * A journal in one NDJSON file for one run: a header line naming the run, then one entry per
 * line, each appended and fsynced before `append` resolves. A process killed mid-write leaves a
 * torn last line (no newline): it is ignored on load and cut off before the next append. A file
 * that names another run is refused, so two runs never mix their steps.
 */
export function fileJournal(path: string): Journal {
  // Bytes of the file that hold whole lines (what the next append continues from), once read.
  let whole: number | undefined
  let owner: string | undefined
  // Appends are written one after the other, in call order, even when not awaited.
  let queue: Promise<unknown> = Promise.resolve()

  const read = async (runId: string): Promise<JournalEntry[]> => {
    let text: string
    try {
      text = await readFile(path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
      whole = 0
      owner = undefined
      return []
    }
    const end = text.lastIndexOf('\n') + 1
    whole = Buffer.byteLength(text.slice(0, end))
    const lines = text.slice(0, end).split('\n').slice(0, -1)
    if (lines.length === 0) {
      owner = undefined
      return []
    }
    const header = parseLine(path, lines[0] as string, 1) as { format?: unknown; runId?: unknown }
    if (header.format !== FORMAT || typeof header.runId !== 'string')
      throw new NestorError('journal_mismatch', `${path} is not a Nestor journal (its first line has no run header)`)
    owner = header.runId
    if (owner !== runId)
      throw new NestorError(
        'journal_mismatch',
        `journal ${path} belongs to run ${owner}, not to run ${runId}: give each run its own file`,
      )
    return lines.slice(1).map((line, i) => parseLine(path, line, i + 2) as JournalEntry)
  }

  return {
    id: `file:${path}`,
    load(runId) {
      const loading = queue.then(() => read(runId))
      queue = loading.catch(() => undefined)
      return loading
    },
    append(runId, entry) {
      const line = serialise(entry) + '\n'
      const writing = queue.then(async () => {
        if (whole === undefined || owner !== runId) await read(runId)
        const size = whole ?? 0
        // A torn tail from a killed writer is cut off, so the new line starts on a line of its own.
        await truncate(path, size).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error
        })
        const text = size === 0 ? JSON.stringify({ format: FORMAT, runId }) + '\n' + line : line
        const file = await open(path, 'a')
        try {
          await file.write(text)
          await file.sync()
        } finally {
          await file.close()
        }
        owner = runId
        whole = size + Buffer.byteLength(text)
      })
      queue = writing.catch(() => undefined)
      return writing
    },
  }
}

function parseLine(path: string, line: string, number: number): unknown {
  try {
    const value: unknown = JSON.parse(line)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value
  } catch {
    // reported below
  }
  throw new NestorError(
    'journal_mismatch',
    `journal ${path} line ${number} is not a JSON object (only a torn last line is skipped)`,
  )
}
