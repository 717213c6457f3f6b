import { createInterface } from 'node:readline/promises'
import type { Readable } from 'node:stream'
import { defineTool, type InputRequest, type JSONSchema, type Tool } from '@nestor/core'
import { z } from 'zod'
import type { LoopRenderer } from './render.js'

/**
 * The runtime's ask handler. In a terminal it asks each field of the question on its own line
 * (Enter takes the default); otherwise (CI, pipes, tests) it answers with the schema's defaults and
 * says so, so the demo never hangs waiting for input nobody can give.
 */
export function asker(
  interactive: boolean,
  renderer: LoopRenderer | undefined,
  input: Readable = process.stdin,
): (request: InputRequest) => Promise<unknown> {
  return async (request) => {
    const fields = Object.entries((request.schema.properties ?? {}) as Record<string, JSONSchema>)
    const defaults = Object.fromEntries(
      fields.flatMap(([name, field]) => ('default' in field ? [[name, field.default]] : [])),
    )
    if (!interactive) {
      renderer?.answered(request, defaults, 'default: not an interactive terminal')
      return defaults
    }
    const rl = createInterface({ input, output: process.stdout, terminal: false })
    try {
      const answer: Record<string, unknown> = {}
      const indent = '  '.repeat(request.depth * 2)
      for (const [name, field] of fields) {
        const hint = 'default' in field ? ` [${String(field.default)}]` : ''
        const typed = (await rl.question(`${indent}  ? ${String(field.description ?? name)}${hint} `)).trim()
        answer[name] = typed === '' ? field.default : field.type === 'number' ? Number(typed) : typed
      }
      renderer?.answered(request, answer, 'your answer')
      return answer
    } finally {
      rl.close()
    }
  }
}

/** save_brief, asking first who the brief is for (kept with the brief; the model's result is the same). */
export function askingForRecipient(saveBrief: Tool, recipients: string[] = []): Tool {
  return defineTool({
    name: saveBrief.spec.name,
    description: saveBrief.spec.description,
    parameters: z.object({ title: z.string().min(1), body: z.string().min(1) }),
    needsApproval: true,
    execute: async (args, ctx) => {
      const { name } = await ctx.ask(
        'Who is the brief for?',
        z.object({ name: z.string().min(1).default('the travellers').describe('who is the brief for?') }),
      )
      recipients.push(name)
      return saveBrief.execute(args, ctx)
    },
  }) as unknown as Tool
}
