import { Runtime, defineTool, type ToolContext } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { median } from './stats.js'

// What ctx.idempotencyKey costs a tool call: execs of one tool call whose body reads the key,
// against the same execs whose body reads the call id, interleaved in rounds in one process.
const CALLS = Number(process.env.KEY_CALLS ?? 2000)
const ROUNDS = 10

export async function idempotencyKeyCost(): Promise<{ calls: number; withKeyUs: number; withoutUs: number }> {
  const make = (read: (ctx: ToolContext) => string) =>
    defineTool({
      name: 'pay',
      description: 'p',
      parameters: { type: 'object', properties: {} },
      execute: (_a, ctx) => read(ctx),
    })
  const withKey = make((ctx) => ctx.idempotencyKey)
  const without = make((ctx) => ctx.toolCallId)
  const turns = (_request: unknown, index: number) =>
    index % 2 === 0 ? { content: [{ type: 'toolCall' as const, id: `c${index}`, name: 'pay', arguments: {} }] } : 'ok'
  const runtime = new Runtime({ provider: scripted(turns), model: 'm' })
  const time = async (tool: typeof withKey, n: number) => {
    const started = performance.now()
    for (let i = 0; i < n; i++) await runtime.exec('go', { tools: [tool] })
    return performance.now() - started
  }
  await time(withKey, 500)
  await time(without, 500)
  // Per round, then the median round: a loaded machine's slow moments land in some rounds only.
  const a: number[] = []
  const b: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    a.push(((await time(withKey, CALLS / ROUNDS)) * 1000 * ROUNDS) / CALLS)
    b.push(((await time(without, CALLS / ROUNDS)) * 1000 * ROUNDS) / CALLS)
  }
  return { calls: CALLS, withKeyUs: median(a), withoutUs: median(b) }
}
