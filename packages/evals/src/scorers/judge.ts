import { NestorError, Runtime, type Provider } from '@nestor/core'
import { option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import type { Scorer } from '../types.js'
import { answerText } from './text.js'

export type JudgeOptions = {
  provider: Provider
  model: string
  /** What a good answer does: the judge grades the answer against it. */
  rubric: string
  name?: string
  /** Extra instructions for the judge's system prompt. */
  system?: string
}

const judgeOptions = strictOptions(() => ({
  provider: option.custom<Provider>('a Provider', (v) => typeof v === 'object' && v !== null && 'stream' in v),
  model: option.nonEmptyString(),
  rubric: option.nonEmptyString(),
  name: option.nonEmptyString().optional(),
  system: option.nonEmptyString().optional(),
}))

// Raw JSON Schema: the judge's typed output needs no zod.
const VERDICT = {
  type: 'object',
  properties: {
    score: { type: 'number', minimum: 0, maximum: 1, description: '0 (fails the rubric) to 1 (meets it fully)' },
    reason: { type: 'string', description: 'one or two sentences' },
  },
  required: ['score', 'reason'],
  additionalProperties: false,
} as const

export const JUDGE_SYSTEM =
  'You grade the answer of an AI agent against a rubric. Reply with a score from 0 to 1 and a short reason. Judge only what the rubric asks.'

/**
 * An LLM judge: asks `model` to grade each answer against `rubric`, as typed output
 * `{ score, reason }`. Its tokens are the scorer's usage, reported apart from the task's; with
 * cassettes its calls are recorded and replayed with the case.
 */
export function judge(options: JudgeOptions): Scorer {
  parseOptions(judgeOptions, options, 'scorers.judge')
  return {
    name: options.name ?? 'judge',
    score: async (c, result, ctx) => {
      const provider = ctx.provider(options.provider)
      const runtime = new Runtime({ provider, model: options.model, system: options.system ?? JUDGE_SYSTEM })
      const prompt = [
        `Rubric:\n${options.rubric}`,
        `Task input:\n${typeof c.input === 'string' ? c.input : JSON.stringify(c.input)}`,
        c.expected === undefined
          ? ''
          : `Reference answer:\n${typeof c.expected === 'string' ? c.expected : JSON.stringify(c.expected)}`,
        `Answer to grade:\n${answerText(result)}`,
      ].filter(Boolean)
      const verdict = await runtime.exec(prompt.join('\n\n'), { output: VERDICT, toolset: 'none', signal: ctx.signal })
      if (verdict.status !== 'completed' || verdict.output === undefined) {
        const error = verdict.error
        throw new NestorError(
          error?.code ?? 'internal',
          `the judge did not answer: ${error?.message ?? verdict.status}`,
        )
      }
      const { score, reason } = verdict.output as { score: number; reason: string }
      return { score, reason, usage: verdict.totalUsage }
    },
  }
}
