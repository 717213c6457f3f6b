import { NestorError, Runtime, type Provider } from '@nestor/core'
import { isOfflineProvider, redactDeep } from '@nestor/core/integration-kit'
import {
  classifyCalls,
  classifyEnding,
  type ConformanceFailureClass,
  type ConformanceViolation,
  type ToolCallObservation,
} from './conformance-classify.js'
import { CONFORMANCE_PROMPT, CONFORMANCE_SYSTEM, conformanceTools } from './conformance-tools.js'

export type ConformanceTarget = { runtime: Runtime } | { provider: Provider; model: string }

export type ConformanceOptions = {
  /** Where NESTOR_LIVE_TESTS is read. Default `process.env`. */
  env?: Record<string, string | undefined>
  signal?: AbortSignal
}

/**
 * What a run observed. Only tool-call observations and the final answer (cut to 500 characters):
 * never tool outputs, prompts or keys, so an outcome can be logged or published as is.
 */
export type ConformanceOutcome = {
  passed: boolean
  provider: string
  model: string
  /** Model calls made (at most 8). */
  turns: number
  observations: ToolCallObservation[]
  /** Every violation, each with exactly one class, in the order they happened. */
  violations: ConformanceViolation[]
  /** The class of the first violation. */
  failureClass?: ConformanceFailureClass
  finalAnswer: string
  /** Set when the run stopped for another reason (a provider error, an abort): not a verdict on the model. */
  error?: string
}

export const CONFORMANCE_MAX_TURNS = 8
const ANSWER_LIMIT = 500
/**
 * A provider is live unless it is marked offline (core's `offlineProvider` symbol: `scripted()`,
 * a strict `replay()`, or a recording from an offline model). Anything else could spend money or
 * leak data, so it needs the explicit opt-in.
 */
export const isLiveProvider = (provider: Provider): boolean => !isOfflineProvider(provider)

/** The one live-gate predicate: live tests and live conformance runs need NESTOR_LIVE_TESTS exactly '1'. */
export function liveTestsEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.NESTOR_LIVE_TESTS === '1'
}

/**
 * Runs the tool-loop conformance workflow (read_fixture → run_fixture_test → write_fixture_patch →
 * a final answer, at most 8 turns) and classifies what the model did. Live providers run only when
 * NESTOR_LIVE_TESTS is exactly '1'; otherwise this rejects with `invalid_options` naming it.
 */
export async function runToolLoopConformance(
  target: ConformanceTarget,
  options: ConformanceOptions = {},
): Promise<ConformanceOutcome> {
  const runtime = 'runtime' in target ? target.runtime : new Runtime({ provider: target.provider, model: target.model })
  const provider = runtime.options.provider
  const model = runtime.options.model
  const env = options.env ?? process.env
  if (isLiveProvider(provider) && !liveTestsEnabled(env)) {
    throw new NestorError(
      'invalid_options',
      `live conformance run refused: provider ${provider.name} is live; set NESTOR_LIVE_TESTS=1 to run it (got ${env.NESTOR_LIVE_TESTS === undefined ? 'unset' : JSON.stringify(env.NESTOR_LIVE_TESTS)})`,
    )
  }
  const secrets = [...(runtime.options.secrets ?? []), ...(provider.secrets?.() ?? [])]
  const tools = conformanceTools()
  const run = runtime.exec(CONFORMANCE_PROMPT, {
    tools,
    system: CONFORMANCE_SYSTEM,
    toolChoice: 'auto',
    maxIterations: CONFORMANCE_MAX_TURNS,
    history: [],
    ...(options.signal && { signal: options.signal }),
  })

  const observations: ToolCallObservation[] = []
  let turn = 0
  for await (const event of run) {
    if (event.depth !== 0) continue
    if (event.type === 'turn_start') turn = event.iteration
    if (event.type === 'message_end' && event.message.role === 'assistant') {
      for (const block of event.message.content) {
        if (block.type !== 'toolCall') continue
        observations.push({ name: block.name, arguments: block.invalidArguments ?? block.arguments, turn })
      }
    }
  }
  const result = await run
  const finalAnswer = result.status === 'completed' ? result.text.slice(0, ANSWER_LIMIT) : ''
  const violations = classifyCalls(observations, tools)
  const ending = classifyEnding(observations, {
    status: result.status,
    ...(result.error && { errorCode: result.error.code }),
    finalAnswer,
    turns: result.iterationsUsed,
  })
  if (ending) violations.push(ending)
  const outcome: ConformanceOutcome = {
    passed: violations.length === 0 && result.status === 'completed',
    provider: provider.name,
    model,
    turns: result.iterationsUsed,
    observations,
    violations,
    finalAnswer,
  }
  if (violations[0]) outcome.failureClass = violations[0].class
  if (result.status !== 'completed' && !ending)
    outcome.error = `${result.error?.code ?? result.status}: ${result.error?.message ?? result.status}`
  return redactDeep(outcome, secrets)
}
