import type { Context, Script } from 'node:vm'
import { vm } from '#peers'

// A JSON Schema `pattern` runs on the backtracking regular expression engine: a pattern such as
// ^(a+)+$ takes exponential time on a short string, and a schema from an MCP server is untrusted.
// A check of a schema with patterns runs under vm's timeout, which interrupts a running regular
// expression: a check that takes longer fails (as a refused value) instead of blocking the process.

/** How long one value's check may take when its schema has patterns. Checks take microseconds. */
export const PATTERN_CHECK_MS = 1_000

/** True when some (sub)schema of `schema` holds a `pattern` or `patternProperties`. */
export function hasPatterns(schema: unknown): boolean {
  const stack: unknown[] = [schema]
  const seen = new Set<object>()
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item !== 'object' || item === null || seen.has(item)) continue
    seen.add(item)
    if (!Array.isArray(item) && ('pattern' in item || 'patternProperties' in item)) return true
    stack.push(...Object.values(item))
  }
  return false
}

type Runner = { context: Context & { run: (() => unknown) | undefined }; script: Script }
let runner: Runner | null | undefined

/** vm's context and script, made at the first check; null where there is no node:vm (workerd). */
function patternRunner(): Runner | null {
  if (runner !== undefined) return runner
  const module = vm()
  runner = module
    ? { context: module.createContext({ run: undefined }) as Runner['context'], script: new module.Script('run()') }
    : null
  return runner
}

/**
 * Runs `fn` (a schema check) for at most PATTERN_CHECK_MS; past it, throws an Error saying a
 * pattern took too long. `fn` is the caller's own: the vm only lends its timeout.
 */
export function withinPatternBudget<T>(fn: () => T): T {
  // Without node:vm (a Cloudflare Worker) nothing can interrupt a regular expression: run as is.
  const found = patternRunner()
  if (!found) return fn()
  const { context, script } = found
  const previous = context.run
  context.run = fn
  try {
    return script.runInContext(context, { timeout: PATTERN_CHECK_MS }) as T
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new Error(
        `the check took over ${PATTERN_CHECK_MS} ms and was stopped (a pattern of the schema backtracks without end on this value)`,
        { cause: error },
      )
    throw error
  } finally {
    context.run = previous
  }
}
