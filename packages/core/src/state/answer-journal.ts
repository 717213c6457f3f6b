import { createHash } from 'node:crypto'
import type { PendingInput } from '../contract/types.js'
import { keyPart } from './journal-key.js'
import { record, type ExecJournal } from './tree-journal.js'

// Where the answers to a call's questions (ctx.ask) sit in the tree journal: beside its decision,
// one step per question, named by the question's key (given, or its place among the call's).

/** A question waiting in a paused state: what `pending.inputs` shows, and where its answer goes. */
export type WaitingInput = PendingInput & { key: string }

/** A waiting question as a paused result and its events show it (its key stays in the state). */
export const pendingInput = ({ key: _key, ...input }: WaitingInput): PendingInput => input

/** The journal key of one question of a call. */
export const answerKey = (exec: ExecJournal, iteration: number, toolCallId: string, name: string): string =>
  `${exec.key}#${iteration}:answer:${keyPart(toolCallId)}:${keyPart(name)}`

/**
 * The id a person answers a question by: a hash of the run and the question's key, so the body
 * asking again after a resume (or a recovery in another process) asks under the same id.
 */
export const inputIdOf = (exec: ExecJournal, key: string): string =>
  `input_${createHash('sha256').update(exec.tree.runId).update('\0').update(key).digest('hex').slice(0, 32)}`

/** The answer a resume gave or the journal recorded for a question, if any. */
export function priorAnswer(exec: ExecJournal, key: string): { value: unknown } | undefined {
  const entry = exec.tree.replay.get(key)
  if (entry) return { value: entry.answer }
  return exec.tree.answers.has(key) ? { value: exec.tree.answers.get(key) } : undefined
}

/** Records an answer before the body goes on with it: a replay gets it again without asking. */
export const recordAnswer = (exec: ExecJournal, key: string, answer: unknown): Promise<void> | undefined =>
  record(exec, { key, kind: 'answer', answer })
