// TEMPORARY: the journal interface that @nestor/core's main entry exports once the journals work
// lands. Declared here so this package builds before that; delete at merge and import from core.
export type JournalEntry = { key: string; kind: 'model' | 'tool' | 'decision' | 'message'; [field: string]: unknown }

export interface Journal {
  load(runId: string): Promise<JournalEntry[]>
  append(runId: string, entry: JournalEntry): Promise<void>
  readonly id?: string
}
