import type { RunState } from '../contract/run-state-schema.js'
import type { Message, ToolChoice, ToolReceipt, Usage } from '../contract/types.js'
import { emptyUsage } from '../contract/usage.js'

/** Approvals decided before the loop reaches the calls (runtime.resume, or a journal). */
export type PriorDecision = { approved: true; args?: Record<string, unknown> } | { approved: false; reason: string }

/** How one field of an exec's state is written into a RunState and read back from one. */
type Field<Live, Stored> = {
  store(live: Live, remaining: readonly string[]): Stored
  restore(stored: Stored): Live
}

const same = <T>(): Field<T, T> => ({ store: (value) => value, restore: (value) => value })
const pairs = <V>(): Field<Map<string, V>, [string, V][]> => ({
  store: (map) => [...map],
  restore: (list) => new Map(list),
})

/**
 * The one field table of an exec's state: `ExecState`, the stored form (in a RunState) and the
 * restored form all come from it, so a field added here is paused and resumed with the rest.
 */
const FIELDS = {
  history: same<Message[]>(),
  /** Index in `history` where this exec's own messages start. */
  startIndex: same<number>(),
  iterationsUsed: same<number>(),
  /** Infinity when unbounded; JSON has no Infinity, so a RunState writes null. */
  iterationBudget: {
    store: (budget) => (Number.isFinite(budget) ? budget : null),
    restore: (stored) => stored ?? Infinity,
  } satisfies Field<number, number | null>,
  /** Tool calls this exec ran (a paused call counts once it runs): the maxToolCalls budget. */
  toolCallsUsed: same<number>(),
  /** maxToolCalls of this exec; Infinity when unbounded, stored as null. */
  toolCallBudget: {
    store: (budget) => (Number.isFinite(budget) ? budget : null),
    restore: (stored) => stored ?? Infinity,
  } satisfies Field<number, number | null>,
  usage: same<Usage>(),
  totalUsage: same<Usage>(),
  receipts: same<ToolReceipt[]>(),
  /** Signature → id of the first call that succeeded with it (duplicate rejection survives a pause). */
  succeeded: pairs<string>(),
  /** Consecutive failures per signature (the circuit breaker). */
  streaks: pairs<number>(),
  /** Decisions taken before the loop reached the calls; a RunState keeps those of waiting calls. */
  decisions: {
    store: (decisions, remaining) => {
      const stored: NonNullable<RunState['decisions']> = {}
      for (const id of remaining) {
        const decision = decisions.get(id)
        if (decision) stored[id] = decision
      }
      return stored
    },
    restore: (stored) => new Map(Object.entries(stored).map(([id, d]) => [id, decisionOf(d)])),
  } satisfies Field<Map<string, PriorDecision>, NonNullable<RunState['decisions']>>,
  /** Reset to auto after the first model call when `resetToolChoice` is on. */
  toolChoice: same<ToolChoice | undefined>(),
  /** The agent answering (handoffs/): the exec's `agent` option, then each handoff's target. */
  agent: same<string | undefined>(),
  /** Handoffs taken: the maxHandoffs budget. */
  handoffsUsed: same<number>(),
}

type StateKey = keyof typeof FIELDS
type LiveOf<F> = F extends { restore(stored: never): infer Live } ? Live : never

// Every field's stored form is the RunState's own field type: the table cannot drift from the schema.
FIELDS satisfies {
  [K in StateKey]: { store(live: never, remaining: readonly string[]): RunState[K]; restore(stored: never): unknown }
}

/** What an exec has done so far, as data: what a paused exec stores and a resumed one starts from. */
export type ExecState = { [K in StateKey]: LiveOf<(typeof FIELDS)[K]> } & {
  /** Every tool call id this exec's history holds (ids are made unique per exec); derived, not stored. */
  toolCallIds: Set<string>
}

/** The part of a RunState that is the exec's own state. */
export type StoredState = Pick<RunState, StateKey>

const KEYS = Object.keys(FIELDS) as StateKey[]

/** The state of an exec that has done nothing yet. */
export function freshState(
  history: Message[],
  startIndex: number,
  iterationBudget: number,
  toolCallBudget = Infinity,
): ExecState {
  return {
    history,
    startIndex,
    iterationsUsed: 0,
    iterationBudget,
    toolCallsUsed: 0,
    toolCallBudget,
    usage: emptyUsage(),
    totalUsage: emptyUsage(),
    receipts: [],
    succeeded: new Map(),
    streaks: new Map(),
    decisions: new Map(),
    toolChoice: undefined,
    agent: undefined,
    handoffsUsed: 0,
    toolCallIds: new Set(),
  }
}

/** The stored form of a state; `remaining` are the calls still waiting (their decisions are kept). */
export function storedState(state: ExecState, remaining: readonly string[]): StoredState {
  const stored: Record<string, unknown> = {}
  for (const key of KEYS) {
    const live = state[key]
    if (live !== undefined)
      stored[key] = (FIELDS[key].store as (live: unknown, r: readonly string[]) => unknown)(live, remaining)
  }
  return stored as StoredState
}

/** The exec state a verified RunState resumes from (the inverse of storedState). */
export function restoredState(stored: RunState): ExecState {
  const state: Record<string, unknown> = {}
  for (const key of KEYS) {
    const value = stored[key]
    state[key] = value === undefined ? undefined : (FIELDS[key].restore as (stored: unknown) => unknown)(value)
  }
  state['decisions'] ??= new Map()
  // States paused before the tool-call budgets existed hold neither field.
  state['toolCallsUsed'] ??= 0
  state['toolCallBudget'] ??= Infinity
  state['handoffsUsed'] ??= 0
  const toolCallIds = new Set<string>()
  for (const m of stored.history)
    if (m.role === 'assistant') for (const c of m.content) if (c.type === 'toolCall') toolCallIds.add(c.id)
  return { ...(state as Omit<ExecState, 'toolCallIds'>), toolCallIds }
}

/** A decision as a RunState writes it, in the loop's form. */
function decisionOf(d: { approved: boolean; args?: Record<string, unknown>; reason?: string }): PriorDecision {
  if (!d.approved) return { approved: false, reason: d.reason ?? 'rejected' }
  return d.args ? { approved: true, args: d.args } : { approved: true }
}
