// The journal contract: where an exec tree records its finished steps (docs/durability.md).

/**
 * One recorded step of an exec tree, as JSON. `key` says where the step happened (the exec's path,
 * the iteration and, for a tool call, its id: see docs/durability.md); `kind` what it was. The
 * other fields are the step's outcome (the assistant message, the tool result and receipt, the
 * decision, the answer to a question, the taken messages).
 */
export type JournalEntry = {
  key: string
  kind: 'model' | 'tool' | 'decision' | 'answer' | 'message' | 'context'
  [field: string]: unknown
}

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
