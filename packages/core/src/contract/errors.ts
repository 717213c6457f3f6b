import type { TrippedGuardrail } from './guardrail-types.js'
import type { ErrorCode } from './types.js'

const brand = Symbol.for('nestor.error')

/**
 * The one error class of Nestor. Branch on `code`; `NestorError.isInstance` works across
 * duplicated package copies, where `instanceof` would not.
 */
export class NestorError extends Error {
  readonly code: ErrorCode
  readonly status?: number
  readonly provider?: string
  readonly retryable?: boolean
  /** `invalid_output` / `refusal`: what did not match the output schema, one line per issue. */
  readonly issues?: readonly string[]
  /** `invalid_output` / `refusal`: the model's raw final text. */
  readonly text?: string
  /** `budget_exceeded` by a dollar budget: the figures the call was refused on. */
  readonly budget?: CostBudgetFigures
  /** `guardrail_tripped`: the guardrail that tripped and why. */
  readonly guardrail?: TrippedGuardrail
  readonly [brand] = true

  constructor(
    code: ErrorCode,
    message: string,
    extra: {
      status?: number
      provider?: string
      retryable?: boolean
      cause?: unknown
      issues?: readonly string[]
      text?: string
      budget?: CostBudgetFigures
      guardrail?: TrippedGuardrail
    } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause })
    this.name = 'NestorError'
    this.code = code
    if (extra.status !== undefined) this.status = extra.status
    if (extra.provider !== undefined) this.provider = extra.provider
    if (extra.retryable !== undefined) this.retryable = extra.retryable
    if (extra.issues !== undefined) this.issues = extra.issues
    if (extra.text !== undefined) this.text = extra.text
    if (extra.budget !== undefined) this.budget = extra.budget
    if (extra.guardrail !== undefined) this.guardrail = extra.guardrail
  }

  static isInstance(value: unknown): value is NestorError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true
  }

  toJSON() {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      status: this.status,
      provider: this.provider,
      retryable: this.retryable,
      issues: this.issues,
      text: this.text,
      budget: this.budget,
      guardrail: this.guardrail,
    }
  }
}

/** Which dollar budget refused a call: spent so far, the call's estimate, the limit (US dollars). */
export type CostBudgetFigures = {
  name: 'maxCostUsd' | 'maxTotalCostUsd'
  spentUsd: number
  estimatedUsd: number
  limitUsd: number
}

export const invalidOption = (option: string, allowed: string, got: unknown): NestorError =>
  new NestorError('invalid_options', `invalid option ${option}: expected ${allowed}, got ${describe(got)}`)

function describe(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean' || value === undefined || value === null)
    return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return typeof value
  }
}

/** Anything thrown, as a message string (for error results and provider errors). */
export function messageOf(error: unknown): string {
  // A thrown value is foreign code: its `message` may be a getter that throws, or not a string.
  try {
    if (error instanceof Error) return String(error.message)
    if (typeof error === 'string') return error
    return describe(error)
  } catch {
    return 'a value was thrown whose message could not be read'
  }
}
