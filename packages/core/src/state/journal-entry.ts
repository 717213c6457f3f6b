import type { z } from 'zod/v4'
import { lazy, zod } from '../base/zod-lazy.js'
import { NestorError } from '../contract/errors.js'
import type { JournalEntry } from '../contract/journal.js'
import { stateSchemas } from '../contract/run-state-schema.js'

// A journal is read back from a store (a file, a database, a fork's edit): what the loop replays
// from it is checked here first, so a corrupted or hand-edited entry fails the exec `invalid_state`
// naming its key instead of throwing deep in the loop (docs/durability.md, "What a journal store is
// trusted with").

const KINDS = ['model', 'tool', 'decision', 'answer', 'message', 'context'] as const

const schemas = lazy(() => {
  const z = zod()
  const { messageSchema, parts } = stateSchemas()
  const { record, count, assistantMessage, toolResultMessage, receipt } = parts
  const size = z.object({ messages: count, tokens: z.number().nonnegative() })
  const byKind: Record<(typeof KINDS)[number], z.ZodType> = {
    model: z.looseObject({
      execId: z.string().optional(),
      message: assistantMessage,
      input: z.string().optional(),
      rootInput: z.array(messageSchema).optional(),
    }),
    tool: z.looseObject({
      signature: z.string(),
      result: toolResultMessage,
      receipt,
      children: count.optional(),
    }),
    // Strict booleans: a truthy 'false' approves nothing.
    decision: z.looseObject({
      decision: z.union([
        z.object({ approved: z.literal(true), args: record.optional() }),
        z.object({ approved: z.literal(false), reason: z.string() }),
      ]),
    }),
    // What a person answered a tool's question (ctx.ask): JSON, checked against the question's schema when read.
    answer: z.looseObject({ answer: z.json() }),
    message: z.looseObject({ messages: z.array(messageSchema) }),
    context: z.looseObject({
      from: count,
      to: count,
      replacement: z.array(messageSchema),
      strategy: z.enum(['summarize', 'truncate', 'custom']),
      before: size,
      after: size,
    }),
  }
  return byKind
})

/** The kind a key names (`root/c:0#2:tool:id` → tool): the loop reads an entry by key as that kind. */
function kindOfKey(key: string): string | undefined {
  const step = key.slice(key.lastIndexOf('#') + 1)
  return /^\d+:([a-z]+)/.exec(step)?.[1]
}

/** Why a journal entry cannot be replayed, or undefined when it can. */
export function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'it is not an object'
  const { key, kind } = entry as Record<string, unknown>
  if (typeof key !== 'string' || key === '') return 'it has no key'
  if (kind === undefined) return 'it has no kind'
  if (!KINDS.includes(kind as (typeof KINDS)[number]))
    return `its kind ${JSON.stringify(kind)?.slice(0, 40)} is not one of ${KINDS.join(', ')}`
  if (kindOfKey(key) !== kind) return `its key names another kind of step than ${kind as string}`
  const parsed = schemas()[kind as (typeof KINDS)[number]].safeParse(entry)
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]
  const path = issue?.path.map(String).join('.')
  return path ? `field ${path}: ${issue?.message}` : (issue?.message ?? 'it does not match its kind')
}

/** The entries as read, checked one by one: the first bad one throws `invalid_state` naming its key. */
export function checkedEntries(entries: unknown, runId: string): JournalEntry[] {
  if (!Array.isArray(entries))
    throw new NestorError('invalid_state', `the journal's load for run ${runId} returned no array of entries`)
  for (const [index, entry] of entries.entries()) {
    const problem = safely(() => entryProblem(entry))
    if (problem === undefined) continue
    const key = safely(() => {
      const found = (entry as { key?: unknown } | null)?.key
      return typeof found === 'string' && found !== '' ? found : undefined
    })
    const name = key === undefined || problem === THROWS ? `at index ${index}` : key
    throw new NestorError('invalid_state', `journal entry ${name} of run ${runId} cannot be replayed: ${problem}`)
  }
  return entries as JournalEntry[]
}

/** A value a store made (a getter, a proxy) may throw while read: that is a bad entry too. */
function safely(check: () => string | undefined): string | undefined {
  try {
    return check()
  } catch {
    return THROWS
  }
}

const THROWS = 'it throws when read'
