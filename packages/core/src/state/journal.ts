import { NestorError } from '../contract/errors.js'

/**
 * One recorded step of an exec tree, as JSON. `key` says where the step happened (the exec's path,
 * the iteration and, for a tool call, its id: see docs/durability.md); `kind` what it was. The
 * other fields are the step's outcome (the assistant message, the tool result and receipt, the
 * decision, the taken messages).
 */
export type JournalEntry = { key: string; kind: 'model' | 'tool' | 'decision' | 'message'; [field: string]: unknown }

/**
 * Where an exec tree records its finished steps so that a later run (in this process or another)
 * replays them instead of paying for them again. Implement it on any store that can append and
 * read back in order; `append` must resolve only once the entry is durable.
 */
export interface Journal {
  load(runId: string): Promise<JournalEntry[]>
  append(runId: string, entry: JournalEntry): Promise<void>
  /**
   * Set by journals that live outside the process (a database, a file): a paused state then holds
   * this id instead of a copy of the entries, and the resume gets the journal again.
   */
  readonly id?: string
}

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
