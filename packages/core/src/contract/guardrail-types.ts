// The public types of guardrails: checks that run beside the loop and can stop it (docs/guardrails.md).

import type { Message, ToolCall, ToolResultMessage } from './message-types.js'

/** Which part of an exec a guardrail checks. */
export type GuardrailKind = 'input' | 'output' | 'tool'

/** What a check said, as events and receipts name it. */
export type GuardrailVerdictName = 'pass' | 'tripwire' | 'retry' | 'reject' | 'replace'

/** Passes (also `undefined`), or trips: the exec ends `failed` with `guardrail_tripped`. */
export type PassOrTrip = { pass: true } | { tripwire: true; reason?: string } | undefined | void

/** An input check's answer. */
export type InputVerdict = PassOrTrip
/** An output check's answer: also `{ retry: 'feedback', feedback }`, which asks the model again. */
export type OutputVerdict = PassOrTrip | { retry: 'feedback'; feedback: string }
/** A tool guardrail's `before`: also `{ reject }`, an error result the model reads (the exec goes on). */
export type BeforeToolVerdict = PassOrTrip | { reject: string }
/** A tool guardrail's `after`: also `{ replace }`, the result the model reads instead (a string or any JSON value). */
export type AfterToolVerdict = PassOrTrip | { replace: unknown }

type Answer<T> = T | Promise<T>

/** What a check knows of the exec it guards. `signal` aborts when the exec ends or aborts. */
export type GuardrailContext = {
  readonly name: string
  readonly kind: GuardrailKind
  readonly execId: string
  readonly depth: number
  readonly signal: AbortSignal
  /** The exec's history as the check runs (read only). */
  readonly messages: readonly Message[]
  /** Output checks of an exec with typed output: the parsed value. */
  readonly output?: unknown
}

/** What every guardrail may say about how it runs. */
type GuardrailRules = {
  /** Unique among the guardrails an exec runs with. */
  readonly name: string
  /** Input guardrails: 'parallel' (default) beside the first model call, 'blocking' before it. */
  readonly mode?: 'parallel' | 'blocking'
  /** A check that takes longer trips (reason 'error'), unless `failOpen`. */
  readonly timeoutMs?: number
  /** A check that throws or times out passes instead of tripping. Default false: fail closed. */
  readonly failOpen?: boolean
  /** False keeps it at the exec (or runtime root) that names it: nested execs do not run it. Default true. */
  readonly inherit?: boolean
}

/** A text guardrail (input and output): `check(text, ctx)`. */
export type TextGuardrail = GuardrailRules & {
  readonly check: (text: string, ctx: GuardrailContext) => Answer<OutputVerdict>
}

/** A tool guardrail: `before` a call runs (its final arguments), `after` it ran. */
export type ToolGuardrail = GuardrailRules & {
  readonly before?: (call: ToolCall, ctx: GuardrailContext) => Answer<BeforeToolVerdict>
  readonly after?: (call: ToolCall, result: ToolResultMessage, ctx: GuardrailContext) => Answer<AfterToolVerdict>
}

export type Guardrail = TextGuardrail | ToolGuardrail

/** The `guardrails` option of a Runtime and of exec: an exec's are added to the runtime's. */
export type GuardrailOptions = {
  input?: TextGuardrail[]
  output?: TextGuardrail[]
  tools?: ToolGuardrail[]
}

/** One tool guardrail's verdict on a call, as its receipt carries it. */
export type ReceiptGuardrail = {
  name: string
  phase: 'before' | 'after'
  verdict: GuardrailVerdictName
  reason?: string
}

/** The guardrail that tripped, on a `guardrail_tripped` error. */
export type TrippedGuardrail = { name: string; kind: GuardrailKind; reason: string }
