// What an exec's receipts add up to (`result.stats`): one definition, calls/exec-stats.ts.

/** One tool's counts: every call the model made to it, and those that gave a result (`ok`). */
export type ToolStats = { calls: number; results: number }

export type ExecStats = {
  /** Per tool name, in the order each tool was first called. */
  tools: Record<string, ToolStats>
  /**
   * Failed calls by kind, from receipt statuses: `schema` is `invalid_arguments`, `timeout` is
   * `timeout`, `execution` is `tool_error` (the body threw or its result failed `output`). Calls a
   * gate answered without running (`unknown_tool`, `duplicate_call`, `rejected`, `skipped`,
   * `aborted`) count as calls without a result, not as errors of a kind.
   */
  errors: { schema: number; timeout: number; execution: number }
  /** The longest run of consecutive calls to one tool, in call order (the first such run on a tie); null without calls. */
  longestStreak: { tool: string; calls: number } | null
}
