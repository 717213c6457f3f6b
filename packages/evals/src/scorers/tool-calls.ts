import { NestorError } from '@nestor/core'
import { option, parseOptions, strictOptions } from '@nestor/core/integration-kit'
import type { ExecNode, ToolNode } from '../tree.js'
import type { Scorer } from '../types.js'
import { containsJson } from './text.js'

/** A wanted call: a tool name, or a name with the arguments it must have (a subset, compared deeply). */
export type ExpectedCall = string | { name: string; args?: Record<string, unknown> }

export type ToolCallsOptions = {
  name?: string
  /** The calls must come in this order (as a subsequence of what was called). Default false: a set. */
  order?: boolean
  /** No other calls allowed: extra calls lower the score. Default false. */
  exact?: boolean
  /** Count only the root exec's calls, not those of nested execs. Default false. */
  rootOnly?: boolean
}

const toolCallsOptions = strictOptions(() => ({
  name: option.nonEmptyString().optional(),
  order: option.boolean().optional(),
  exact: option.boolean().optional(),
  rootOnly: option.boolean().optional(),
}))

/** Every call of the tree, parents before the calls their bodies' execs made. */
export function flattenCalls(node: ExecNode, rootOnly = false): ToolNode[] {
  const calls: ToolNode[] = []
  const visit = (exec: ExecNode) => {
    for (const call of exec.tools) {
      calls.push(call)
      if (!rootOnly) call.children.forEach(visit)
    }
  }
  visit(node)
  return calls
}

const label = (e: ExpectedCall) => (typeof e === 'string' ? e : `${e.name}${e.args ? JSON.stringify(e.args) : ''}`)
const matches = (e: ExpectedCall, call: ToolNode) =>
  typeof e === 'string' ? call.toolName === e : call.toolName === e.name && (!e.args || containsJson(call.args, e.args))

/** The tool trajectory: the share of wanted calls made (in order, or as a set), with or without arguments. */
export function toolCalls(expected: ExpectedCall[], options: ToolCallsOptions = {}): Scorer {
  if (!Array.isArray(expected) || expected.length === 0)
    throw new NestorError(
      'invalid_options',
      'scorers.toolCalls: expected a non-empty array of tool names or { name, args }',
    )
  parseOptions(toolCallsOptions, options, 'scorers.toolCalls')
  return {
    name: options.name ?? 'toolCalls',
    score: (_c, _result, ctx) => {
      const calls = flattenCalls(ctx.tree, options.rootOnly)
      const used = new Set<number>()
      const missing: ExpectedCall[] = []
      let from = 0
      for (const want of expected) {
        const at = calls.findIndex((call, i) => i >= from && !used.has(i) && matches(want, call))
        if (at < 0) missing.push(want)
        else {
          used.add(at)
          if (options.order) from = at + 1
        }
      }
      const extra = options.exact ? calls.filter((_, i) => !used.has(i)) : []
      const matched = expected.length - missing.length
      const score = matched / (expected.length + extra.length)
      if (score === 1) return 1
      const why = [
        missing.length ? `missing${options.order ? ' (in order)' : ''} ${missing.map(label).join(', ')}` : '',
        extra.length ? `extra ${extra.map((c) => c.toolName).join(', ')}` : '',
      ].filter(Boolean)
      return { score, reason: `${why.join('; ')} (called: ${calls.map((c) => c.toolName).join(', ') || 'nothing'})` }
    },
  }
}
