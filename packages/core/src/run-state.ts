import { createHmac, timingSafeEqual } from 'node:crypto'
import { canonicalJson } from './canonical.js'
import { NestorError } from './errors.js'
import type { ExecContext, PriorDecision } from './exec-context.js'
import type { ToolsOutcome } from './execute-tools.js'
import type { AssistantMessage, Message, RunState } from './types.js'

export const RUN_STATE_VERSION = 1

/** Everything a paused exec needs to continue, as plain JSON (a deep copy, safe to store). */
export function toRunState(ctx: ExecContext, _message: AssistantMessage, outcome: ToolsOutcome): RunState {
  const decisions: RunState['decisions'] = {}
  for (const id of outcome.remaining) {
    const d = ctx.decisions.get(id)
    if (d) decisions[id] = d
  }
  const state: RunState = {
    version: RUN_STATE_VERSION,
    execId: ctx.execId,
    model: ctx.model,
    history: ctx.history,
    startIndex: ctx.startIndex,
    toolNames: [...ctx.tools.keys()],
    iterationsUsed: ctx.iterationsUsed,
    iterationBudget: ctx.iterationBudget,
    usage: ctx.usage,
    totalUsage: ctx.totalUsage,
    succeeded: [...ctx.succeeded],
    streaks: [...ctx.streaks],
    pending: outcome.pending,
    remaining: outcome.remaining,
    decisions,
    receipts: ctx.receipts,
    tree: { iterations: ctx.tree.iterations, tokens: ctx.tree.tokens, elapsedMs: Date.now() - ctx.tree.startedAt },
  }
  if (ctx.system !== undefined) state.system = ctx.system
  if (ctx.toolChoice !== undefined) state.toolChoice = ctx.toolChoice
  if (ctx.parallelToolCalls !== undefined) state.parallelToolCalls = ctx.parallelToolCalls
  const plain = JSON.parse(JSON.stringify(state)) as RunState
  // Signed here, before any event carries the state, so agent_end shows the same signed state.
  const secret = (ctx.runtime as { options?: { stateSecret?: string } } | undefined)?.options?.stateSecret
  return secret === undefined ? plain : signState(plain, secret)
}

export function signState(state: RunState, secret: string): RunState {
  return { ...state, signature: hmac(state, secret) }
}

function hmac(state: RunState, secret: string): string {
  const { signature: _omit, ...body } = state
  return createHmac('sha256', secret).update(canonicalJson(body)).digest('hex')
}

const invalid = (why: string) => new NestorError('invalid_state', `invalid RunState: ${why}`)

/**
 * Checks a state before resuming: version, signature (with a secret), shape, and that the paused
 * message's calls are still there. Throws `invalid_state` naming what is wrong.
 */
export function verifyState(value: unknown, secret: string | undefined): { state: RunState; message: AssistantMessage } {
  if (typeof value !== 'object' || value === null) throw invalid('expected an object')
  const state = value as RunState
  if (state.version !== RUN_STATE_VERSION) {
    throw invalid(`unknown version ${JSON.stringify(state.version)}; this runtime reads version ${RUN_STATE_VERSION}`)
  }
  if (secret !== undefined) {
    if (typeof state.signature !== 'string') throw invalid('it is not signed, and this runtime has a stateSecret')
    const expected = Buffer.from(hmac(state, secret), 'hex')
    const got = Buffer.from(state.signature, 'hex')
    if (got.length !== expected.length || !timingSafeEqual(got, expected)) throw invalid('signature does not match: the state was tampered with or signed with another secret')
  }
  const arrays: (keyof RunState)[] = ['history', 'toolNames', 'succeeded', 'streaks', 'pending', 'remaining', 'receipts']
  for (const key of arrays) if (!Array.isArray(state[key])) throw invalid(`field ${key} must be an array`)
  for (const key of ['iterationsUsed', 'iterationBudget', 'startIndex'] as const) {
    if (typeof state[key] !== 'number' && !(key === 'iterationBudget' && state[key] === null)) throw invalid(`field ${key} must be a number`)
  }
  if (typeof state.model !== 'string' || typeof state.execId !== 'string') throw invalid('fields model and execId must be strings')
  if (typeof state.tree !== 'object' || state.tree === null) throw invalid('field tree is missing')
  // Budgets continue from these counters; a missing one would silently disable its budget.
  for (const key of ['iterations', 'tokens', 'elapsedMs'] as const) {
    if (typeof state.tree[key] !== 'number' || !Number.isFinite(state.tree[key])) throw invalid(`field tree.${key} must be a finite number`)
  }
  for (const key of ['usage', 'totalUsage'] as const) {
    if (typeof state[key] !== 'object' || state[key] === null) throw invalid(`field ${key} is missing`)
  }
  if (typeof state.decisions !== 'object' || state.decisions === null || Array.isArray(state.decisions)) throw invalid('field decisions must be an object')
  const index = lastAssistantIndex(state.history)
  if (index < 0) throw invalid('history holds no assistant message to continue from')
  const message = state.history[index] as AssistantMessage
  const ids = new Set(message.content.flatMap((c) => (c.type === 'toolCall' ? [c.id] : [])))
  for (const id of state.remaining) if (!ids.has(id)) throw invalid(`remaining call ${id} is not in the paused assistant message`)
  return { state, message }
}

function lastAssistantIndex(history: Message[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]?.role === 'assistant') return i
  return -1
}

export function decisionsFromState(state: RunState): Map<string, PriorDecision> {
  const map = new Map<string, PriorDecision>()
  for (const [id, d] of Object.entries(state.decisions ?? {})) {
    map.set(id, d.approved ? (d.args ? { approved: true, args: d.args } : { approved: true }) : { approved: false, reason: d.reason ?? 'rejected' })
  }
  return map
}
