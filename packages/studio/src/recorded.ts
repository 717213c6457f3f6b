import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readdirSync, readSync, statSync, type Stats } from 'node:fs'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileJournal, type Journal, type JournalEntry } from '@nestor/core'

/** One recorded run as the studio lists it: where it is, or why it cannot be read. */
export type RecordedRun = { runId: string; source: string; problem?: string }

/** A run's entries, or a message saying why they cannot be shown (never a blank page). */
export type RecordedEntries = { runId: string; source: string; entries: JournalEntry[]; problem?: string }

/**
 * Where recorded runs are: a store of journals the studio can list and read. `create` (a store
 * that keeps new runs) gives a fork its own journal, so the fork is recorded too.
 */
export interface RecordedRuns {
  /** The newest runs first, at most `limit`. */
  list(limit: number): Promise<RecordedRun[]>
  /** The journal of a run this store holds; undefined for any other run id. */
  journal(runId: string): Promise<Journal | undefined>
  create?(runId: string): Journal
}

/** Files over this many bytes are not read: the page says so instead. */
export const MAX_JOURNAL_BYTES = 16 * 1024 * 1024
/** A page shows at most this many entries of one run; the rest is counted, not sent. */
export const MAX_ENTRIES = 5000

const HEADER_BYTES = 4096
const FORMAT = 'nestor-journal'

/**
 * The file journals (`fileJournal`) in these files and folders. A folder's files are listed newest
 * first; a file that is not a journal is listed with the reason. With one folder, forks are kept
 * in it (`<runId>.ndjson`).
 */
export function fileJournals(paths: string | string[]): RecordedRuns {
  const given = Array.isArray(paths) ? paths : [paths]
  const where = new Map<string, string>()
  // Each file's header, read again only when the file changed: a page lists the runs every few seconds.
  const headers = new Map<string, { mtime: number; header: { runId: string } | string }>()
  const folder = given.length === 1 ? given[0] : undefined

  // The folder's files and their headers are read synchronously: each stat or 4 KB read is
  // microseconds from the page cache, while a thousand trips through the thread pool take a
  // tenth of a second alone and far longer beside a run's event stream (the page's first view).
  const files = (): { path: string; mtime: number }[] => {
    const found: { path: string; mtime: number }[] = []
    const look = (path: string, inFolder: boolean) => {
      const info = statOrUndefined(path)
      if (info?.isDirectory()) {
        if (!inFolder) for (const name of readdirSync(path)) look(join(path, name), true)
      } else found.push({ path, mtime: info?.mtimeMs ?? 0 })
    }
    for (const path of given) look(path, false)
    return found.sort((a, b) => b.mtime - a.mtime)
  }

  const store: RecordedRuns = {
    async list(limit) {
      return files()
        .slice(0, limit)
        .map(({ path, mtime }) => {
          let known = headers.get(path)
          if (known?.mtime !== mtime) headers.set(path, (known = { mtime, header: readHeader(path) }))
          const { header } = known
          if (typeof header === 'string') return { runId: path, source: path, problem: header }
          where.set(header.runId, path)
          return { runId: header.runId, source: path }
        })
    },
    async journal(runId) {
      if (!where.has(runId)) await store.list(Infinity)
      const path = where.get(runId)
      return path === undefined ? undefined : boundedJournal(path)
    },
  }
  if (folder !== undefined)
    store.create = (runId) => {
      const path = join(folder, `${runId}.ndjson`)
      where.set(runId, path)
      return fileJournal(path)
    }
  return store
}

const statOrUndefined = (path: string): Stats | undefined => {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/** The run named by a file's first line, or why the file is not a journal. */
function readHeader(path: string): { runId: string } | string {
  let text: string
  try {
    const file = openSync(path, 'r')
    try {
      const buffer = Buffer.alloc(HEADER_BYTES)
      text = buffer.subarray(0, readSync(file, buffer, 0, HEADER_BYTES, 0)).toString('utf8')
    } finally {
      closeSync(file)
    }
  } catch (error) {
    return `cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`
  }
  const line = text.split('\n')[0] ?? ''
  try {
    const header = JSON.parse(line) as { format?: unknown; runId?: unknown }
    if (header.format === FORMAT && typeof header.runId === 'string') return { runId: header.runId }
  } catch {}
  return text === ''
    ? 'is empty: no run was recorded in it'
    : `is not a Nestor journal (its first line has no run header)`
}

/** A file journal whose load refuses a file too large to show. */
function boundedJournal(path: string): Journal {
  const journal = fileJournal(path)
  return {
    id: journal.id ?? `file:${path}`,
    async load(runId) {
      const { size } = await stat(path)
      if (size > MAX_JOURNAL_BYTES)
        throw new Error(`${path} holds ${size} bytes, over the ${MAX_JOURNAL_BYTES} the studio reads`)
      return journal.load(runId)
    },
    append: (runId, entry) => journal.append(runId, entry),
  }
}

/** Reads one run's entries from the first store that holds it; a failure is the message shown. */
export async function readRecorded(stores: RecordedRuns[], runId: string): Promise<RecordedEntries | undefined> {
  for (const store of stores) {
    const journal = await store.journal(runId)
    if (!journal) continue
    const source = journal.id ?? 'journal'
    try {
      const entries = await journal.load(runId)
      if (entries.length > MAX_ENTRIES)
        return {
          runId,
          source,
          entries: entries.slice(0, MAX_ENTRIES),
          problem: `showing the first ${MAX_ENTRIES} of ${entries.length} entries`,
        }
      return { runId, source, entries }
    } catch (error) {
      return { runId, source, entries: [], problem: error instanceof Error ? error.message : String(error) }
    }
  }
  return undefined
}

/** A new run id for a fork: unguessable, safe as a file name. */
export const forkRunId = (): string => `fork-${randomBytes(12).toString('base64url')}`
