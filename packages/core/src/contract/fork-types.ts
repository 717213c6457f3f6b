import type { ExecInput, ExecOptions } from './exec-types.js'
import type { Journal } from './journal.js'
import type { AssistantMessage, Message, ToolOutput } from './types.js'

/** What to change at the fork point: a tool step's result, a model step's message, a decision. */
export type ForkEdit =
  | { toolResult: string | ToolOutput }
  | { message: string | AssistantMessage | Message[] }
  | { decision: { approved: true; args?: Record<string, unknown> } | { approved: false; reason: string } }

/** The recorded run to fork: its journal and run id, where to change what (and, for old journals, its input). */
export type ForkSource = {
  journal: Journal
  runId: string
  /**
   * The root's input, as the recorded run was given it. Optional: a journal keeps it with the
   * run's first model step (redacted). Needed for journals written before that (they keep only a
   * digest) and for an input a secret was redacted out of: without it such a fork fails
   * `invalid_options` saying so.
   */
  input?: ExecInput
  /** A journal key of the recorded run (`root#2:tool:call_7`): replayed up to here, edited here. */
  at: string
  edit: ForkEdit
}

/** The fork's own options: an exec's, with the new run id (and, to keep the fork, its journal). */
export type ForkOptions = ExecOptions & { runId: string }
