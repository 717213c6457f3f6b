import type { EvaluateOptions } from './types.js'

/** What an `*.eval.ts|js` file exports by default: the options of one eval (or a list of them). */
export type EvalDefinition<I = unknown, E = unknown> = EvaluateOptions<I, E>

/** Types an eval file's default export; `nestor-eval` runs it, with its flags applied over it. */
export function defineEval<I = unknown, E = unknown>(definition: EvalDefinition<I, E>): EvalDefinition<I, E> {
  return definition
}
