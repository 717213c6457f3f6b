import type { NestorError } from '../contract/errors.js'
import type { TextGuardrail } from '../contract/guardrail-types.js'
import type { Message } from '../contract/types.js'
import type { ExecContext } from '../exec/context.js'
import { runCheck, trippedError, type Decision } from './check.js'

/**
 * Input guardrails still checking beside the first model call, per exec: settles with the trip,
 * or undefined once every one passed. Gone once read as passed.
 */
const checking = new WeakMap<ExecContext, Promise<NestorError | undefined>>()
/** The trip that aborted an exec: its ending says `guardrail_tripped`, not `aborted`. */
const tripped = new WeakMap<ExecContext, NestorError>()

/**
 * Starts the input guardrails on a fresh exec's input: the blocking ones run first (their trip
 * is returned before any model call), then the parallel ones start beside the first model call;
 * `inputChecked` waits for those. Nothing happens (no tick) without input guardrails.
 */
export function startInputGuardrails(
  ctx: ExecContext,
  input: readonly Message[],
): NestorError | undefined | Promise<NestorError | undefined> {
  const list = ctx.env.guardrails?.input
  if (!list?.length) return undefined
  const text = textOfInput(input)
  const blocking = list.filter((g) => g.mode === 'blocking')
  const parallel = list.filter((g) => g.mode !== 'blocking')
  const startParallel = (): NestorError | undefined => {
    if (parallel.length === 0) return undefined
    const checked = firstTrip(ctx, parallel, text)
    // Synchronous checks have decided already: a trip ends the exec before any model call.
    if (!(checked instanceof Promise)) return checked
    const watch = checked.then((trip) => {
      // A trip aborts whatever is in flight (the model call); the ending then says why.
      if (trip) {
        tripped.set(ctx, trip)
        ctx.control.controller.abort(trip)
      }
      return trip
    })
    checking.set(ctx, watch)
    return undefined
  }
  if (blocking.length === 0) return startParallel()
  const gate = firstTrip(ctx, blocking, text)
  if (!(gate instanceof Promise)) return gate ?? startParallel()
  return gate.then((trip) => trip ?? startParallel())
}

/**
 * Before any tool runs and before the exec completes: waits for the input guardrails still
 * checking. Their trip, or undefined (at once when none is pending).
 */
export function inputChecked(ctx: ExecContext): NestorError | undefined | Promise<NestorError | undefined> {
  const watch = checking.get(ctx)
  if (!watch) return undefined
  return watch.then((trip) => {
    if (!trip) checking.delete(ctx)
    return trip
  })
}

/** The trip that aborted this exec, if one did: an ending that says `aborted` is a trip in fact. */
export const tripOf = (ctx: ExecContext): NestorError | undefined => tripped.get(ctx)

/**
 * Runs the checks concurrently: the first trip (in the order they finish), or undefined. Without
 * a tick when every check answered synchronously.
 */
function firstTrip(
  ctx: ExecContext,
  list: readonly TextGuardrail[],
  text: string,
): NestorError | undefined | Promise<NestorError | undefined> {
  const pending: Promise<Decision>[] = []
  const owners: TextGuardrail[] = []
  for (const g of list) {
    const decision = runCheck(ctx, g, 'input', {}, (gctx) => g.check(text, gctx))
    if (decision instanceof Promise) {
      pending.push(decision)
      owners.push(g)
    } else if (decision.verdict === 'tripwire') return trippedError(g.name, 'input', decision)
  }
  if (pending.length === 0) return undefined
  return new Promise((resolve) => {
    let left = pending.length
    for (const [i, decision] of pending.entries())
      void decision.then((d) => {
        if (d.verdict === 'tripwire') resolve(trippedError((owners[i] as TextGuardrail).name, 'input', d))
        else if (--left === 0) resolve(undefined)
      })
  })
}

/** What an input guardrail reads: the text of the exec's input messages (users' and others'). */
function textOfInput(input: readonly Message[]): string {
  const parts: string[] = []
  for (const message of input) {
    if (typeof message.content === 'string') parts.push(message.content)
    else for (const block of message.content) if (block.type === 'text') parts.push(block.text)
  }
  return parts.join('\n')
}
