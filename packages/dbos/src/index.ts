export { durable } from './durable.js'
export type { DurableOptions, DurableStartOptions, DurableHandle, DurableEvent, DurableExecs } from './durable.js'
export { postgresJournal } from './postgres-journal.js'
export type { PostgresJournal, PostgresJournalOptions } from './postgres-journal.js'
