import type { Tool, ToolOutput } from '@nestor/core'
import { directToolContext } from '../support/tool-context.js'

/** What a model would get back from one call: the text, whether it is an error result, the effect. */
export type Outcome = { text: string; isError: boolean; effect?: Record<string, unknown> }

/** Calls a tool as the loop does after validation (the arguments checked against its schema first). */
export async function call(
  tools: Tool | Tool[],
  name: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<Outcome> {
  const tool = (Array.isArray(tools) ? tools : [tools]).find((t) => t.spec.name === name)
  if (!tool) throw new Error(`no tool ${name}`)
  const checked = tool.validate?.(args)
  if (checked && !checked.ok) return { text: checked.issues.join('; '), isError: true }
  const ctx = { ...directToolContext(), ...(signal && { signal }) }
  try {
    const out = (await tool.execute(args, ctx)) as ToolOutput
    const text = out.content.map((c) => ('text' in c ? c.text : '')).join('')
    return { text, isError: false, effect: (out.details as { effect?: Record<string, unknown> })?.effect }
  } catch (error) {
    return { text: (error as Error).message, isError: true }
  }
}

/** The approval preview a tool shows for these arguments. */
export async function preview(tools: Tool[], name: string, args: Record<string, unknown>): Promise<unknown> {
  const tool = tools.find((t) => t.spec.name === name)!
  return tool.prepare!(args, directToolContext())
}
