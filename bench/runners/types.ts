import type { HistoryItem, Outcome, Scenario } from '../scenario.js'

/** One benchmark workload: a scenario, optionally after a long prior conversation. */
export type Workload = { name: string; scenario: Scenario; history: HistoryItem[] }

/** Where the mock server is. Every runner talks OpenAI Chat Completions to it. */
export type Target = { baseURL: string; apiKey: string; model: string }

/**
 * A system under test. `run` performs one full run and returns only after `verify` passed, so a
 * timing can never come from a run that silently did less work.
 */
export interface Runner {
  readonly name: string
  /** Workload kinds this runner implements; others are reported as "not run". */
  supports(workload: Workload): boolean
  run(workload: Workload): Promise<Outcome>
  /** Releases what the runner holds open beyond the process's own handles (an MCP server). */
  close?(): Promise<void>
}

export type RunnerFactory = (target: Target) => Runner | Promise<Runner>
