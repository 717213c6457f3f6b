import { Runtime, defineTool, exec, type RuntimeOptions } from '@nestor/core'
import { type ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import { z } from 'zod'
import { calls, textOf } from '../support/run.js'

const firstUser = (r: ModelRequest) => textOf(r.messages.find((m) => m.role === 'user')!)
const answered = (r: ModelRequest) => r.messages.some((m) => m.role === 'toolResult')

/**
 * Three levels: the root asks for two `research` calls at once; each opens an exec that calls
 * `lookup`, which opens a third exec that answers with text.
 */
export function threeLevelRuntime(options: Partial<RuntimeOptions> = {}, delayMs = 0) {
  const research = defineTool({
    name: 'research',
    description: 'researches a topic in a nested exec',
    parameters: z.object({ topic: z.string() }),
    execute: async ({ topic }) => (await exec(`level1: ${topic}`)).text,
  })
  const lookup = defineTool({
    name: 'lookup',
    description: 'looks a fact up in a nested exec',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => (await exec(`level2: ${q}`)).text,
  })
  const provider = scripted(
    (request) => {
      const user = firstUser(request)
      if (user.startsWith('level2:')) return `fact about ${user.slice(8)}`
      if (user.startsWith('level1:'))
        return answered(request) ? `report on ${user.slice(8)}` : calls({ name: 'lookup', args: { q: user.slice(8) } })
      return answered(request)
        ? 'root done'
        : calls({ name: 'research', args: { topic: 'a' } }, { name: 'research', args: { topic: 'b' } })
    },
    { delayMs },
  )
  const runtime = new Runtime({ provider, model: 'm', toolExecution: 'parallel', ...options })
  return { runtime, tools: [research, lookup] }
}
