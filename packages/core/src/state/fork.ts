import { NestorError, messageOf } from '../contract/errors.js'
import type { ForkEdit, ForkSource } from '../contract/fork-types.js'
import type { Journal, JournalEntry } from '../contract/journal.js'
import type { AssistantMessage, Message, ToolResultMessage } from '../contract/types.js'
import { memoryJournal } from './memory-journal.js'
import { checkForkEdit } from './fork-edit.js'
import { checkedEntries } from './journal-entry.js'
import { markSealed, sealedJournal } from './journal-seal.js'
import { inputDigest } from './tree-journal.js'

/**
 * A journal for the fork's run id that, on first load, copies the recorded run's entries up to
 * `at` (edited there) into `target`: the exec then replays them and goes on live. The source is
 * only read, so the original run's journal is untouched.
 */
export function forkJournal(
  source: ForkSource,
  runId: string,
  given: Journal = memoryJournal(),
  secret?: string,
): { journal: Journal; input: () => Promise<Message[]> } {
  if (runId === source.runId && given === source.journal)
    throw new NestorError(
      'invalid_options',
      'fork: the new runId must differ from the recorded run id on the same journal',
    )
  const edit = checkForkEdit(source.edit, source.at)
  // With a secret, the recorded steps are verified as read and the copies signed for the new run.
  const from = sealedJournal(source.journal, secret)
  const target = sealedJournal(given, secret)
  // The recorded run is read once, for its steps and (without source.input) its input; each entry
  // is checked before the fork copies or reads it.
  let recorded: Promise<JournalEntry[]> | undefined
  const load = () =>
    (recorded ??= Promise.resolve()
      .then(() => from.load(source.runId))
      .then((entries) => checkedEntries(entries, source.runId)))
  let seeded: Promise<JournalEntry[]> | undefined
  const seed = async (): Promise<JournalEntry[]> => {
    const already = await target.load(runId)
    if (already.length > 0)
      throw new NestorError('invalid_options', `fork: run ${runId} already has entries in the target journal`)
    const entries = await load()
    const index = entries.findIndex((entry) => entry.key === source.at)
    if (index < 0)
      throw new NestorError(
        'invalid_options',
        `fork: run ${source.runId} has no journal step ${source.at} (its steps: ${entries.map((e) => e.key).join(', ') || 'none'})`,
      )
    const copied = entries.slice(0, index + 1).map((entry) => structuredClone(entry))
    // Marked: its events say `edited`, not `replayed` (state/edited-steps.ts).
    copied[index] = { ...edited(copied[index]!, edit), edited: true }
    for (const entry of copied) await target.append(runId, entry)
    return copied
  }
  const forked: Journal = {
    load: async (id) => (id === runId ? (seeded ??= seed()) : target.load(id)),
    append: (id, entry) => target.append(id, entry),
  }
  return {
    journal: markSealed(target.id === undefined ? forked : { ...forked, id: target.id }),
    input: () =>
      load().then(
        (entries) => recordedInput(entries, source.runId),
        (error: unknown) => {
          throw NestorError.isInstance(error)
            ? error
            : new NestorError('hook_error', `the journal's load failed: ${messageOf(error)}`, { cause: error })
        },
      ),
  }
}

/**
 * The input the recorded root was opened with, from its first model step. Checked against that
 * step's digest (of the input and the steering taken before the turn): a redacted secret makes
 * them differ, and the fork could not replay.
 */
function recordedInput(entries: JournalEntry[], runId: string): Message[] {
  const first = entries.find((entry) => entry.key === 'root#1:model')
  const input = first?.rootInput
  if (!first || !Array.isArray(input))
    throw new NestorError(
      'invalid_options',
      first
        ? `fork: the journal of run ${runId} keeps only a digest of its input (it was recorded before journals kept the input): pass source.input`
        : `fork: run ${runId} has no recorded first model step to take its input from: pass source.input`,
    )
  const steering = entries.filter((entry) => entry.key.startsWith('root#1:message:'))
  const before = [...(input as Message[]), ...steering.flatMap((entry) => entry.messages as Message[])]
  if (first.input !== undefined && first.input !== inputDigest(before))
    throw new NestorError(
      'invalid_options',
      `fork: the input of run ${runId} held a secret, redacted in its journal: pass source.input`,
    )
  return structuredClone(input as Message[])
}

function edited(entry: JournalEntry, edit: ForkEdit): JournalEntry {
  const wrong = (what: string) =>
    new NestorError('invalid_options', `fork: step ${entry.key} is a ${entry.kind} step; ${what}`)
  if ('toolResult' in edit) {
    if (entry.kind !== 'tool') throw wrong('only a tool step takes { toolResult }')
    const result = entry.result as ToolResultMessage
    const output =
      typeof edit.toolResult === 'string'
        ? { content: [{ type: 'text' as const, text: edit.toolResult }] }
        : edit.toolResult
    const next: ToolResultMessage = { ...result, content: output.content, isError: false }
    if (output.details === undefined) delete next.details
    else next.details = output.details
    // The edited result replays as a leaf: the body (and the children it opened) does not run again.
    const { children: _children, ...rest } = entry
    return { ...rest, result: next }
  }
  if ('message' in edit) {
    if (entry.kind === 'message') {
      const messages =
        typeof edit.message === 'string' ? [{ role: 'user' as const, content: edit.message }] : edit.message
      if (!Array.isArray(messages)) throw wrong('a message step takes { message: string | Message[] }')
      return { ...entry, messages }
    }
    if (entry.kind !== 'model') throw wrong('only a model or message step takes { message }')
    if (Array.isArray(edit.message)) throw wrong('a model step takes { message: string | AssistantMessage }')
    const recorded = entry.message as AssistantMessage
    const message: AssistantMessage =
      typeof edit.message === 'string'
        ? { ...recorded, content: [{ type: 'text', text: edit.message }], stopReason: 'stop' }
        : (edit.message as AssistantMessage)
    return { ...entry, message }
  }
  if (entry.kind !== 'decision') throw wrong('only a decision step takes { decision }')
  return { ...entry, decision: edit.decision }
}
