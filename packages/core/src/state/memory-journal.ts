import { NestorError } from '../contract/errors.js'
import type { Journal, JournalEntry } from '../contract/journal.js'

/** A journal in this process's memory: replays within the process, lost with it. */
export function memoryJournal(): Journal {
  const runs = new Map<string, string[]>()
  return {
    async load(runId) {
      // Stored as JSON text: what comes back is a copy, and what cannot be JSON fails at append.
      return (runs.get(runId) ?? []).map((line) => JSON.parse(line) as JournalEntry)
    },
    async append(runId, entry) {
      const line = serialise(entry)
      const entries = runs.get(runId)
      if (entries) entries.push(line)
      else runs.set(runId, [line])
    },
  }
}

export function serialise(entry: JournalEntry): string {
  if (typeof entry.key !== 'string' || entry.key === '')
    throw new NestorError('invalid_state', 'a journal entry needs a non-empty string key')
  try {
    return JSON.stringify(entry)
  } catch (error) {
    throw new NestorError(
      'invalid_state',
      `journal entry ${entry.key} cannot be serialised as JSON: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}
