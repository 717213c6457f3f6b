import type { ExecStats, ToolStats } from '../contract/exec-stats-types.js'
import type { Message, ReceiptStatus, ToolReceipt } from '../contract/types.js'

/** The error kind each failing status counts as; other statuses are not an error of a kind. */
const ERROR_KIND: Partial<Record<ReceiptStatus, keyof ExecStats['errors']>> = {
  invalid_arguments: 'schema',
  timeout: 'timeout',
  tool_error: 'execution',
}

/**
 * `result.stats`: the one place receipts are added up. Receipts are taken in call order: when
 * `history` is given, in the order their calls appear there (parallel calls finish in any order).
 */
export function statsFromReceipts(receipts: readonly ToolReceipt[], history?: readonly Message[]): ExecStats {
  // A null prototype: a tool may be named __proto__.
  const tools = Object.create(null) as Record<string, ToolStats>
  const errors = { schema: 0, timeout: 0, execution: 0 }
  let longestStreak: ExecStats['longestStreak'] = null
  let streak = { tool: '', calls: 0 }
  for (const receipt of history ? inCallOrder(receipts, history) : receipts) {
    const counts = (tools[receipt.toolName] ??= { calls: 0, results: 0 })
    counts.calls++
    if (receipt.status === 'ok') counts.results++
    const kind = ERROR_KIND[receipt.status]
    if (kind) errors[kind]++
    streak =
      streak.tool === receipt.toolName
        ? { tool: streak.tool, calls: streak.calls + 1 }
        : { tool: receipt.toolName, calls: 1 }
    if (!longestStreak || streak.calls > longestStreak.calls) longestStreak = streak
  }
  return { tools, errors, longestStreak }
}

/** Receipts sorted by where their call stands in the history; those not found keep their place at the end. */
function inCallOrder(receipts: readonly ToolReceipt[], history: readonly Message[]): readonly ToolReceipt[] {
  const position = new Map<string, number>()
  for (const message of history) {
    if (message.role !== 'assistant') continue
    for (const block of message.content) if (block.type === 'toolCall') position.set(block.id, position.size)
  }
  const at = (receipt: ToolReceipt) => position.get(receipt.toolCallId) ?? Infinity
  // A stable sort: receipts of one position (none, or not found) keep their order.
  return receipts.slice().sort((a, b) => {
    const d = at(a) - at(b)
    return Number.isNaN(d) ? 0 : d
  })
}
