import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ToolInput } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'

const seen: unknown[] = []
const zodTool = (strictArguments?: boolean) =>
  defineTool({
    name: 'lookup',
    description: 'Look up',
    parameters: z.object({ q: z.string() }),
    ...(strictArguments === undefined ? {} : { strictArguments }),
    execute: (args) => {
      seen.push(args)
      return 'found'
    },
  })
const jsonTool = {
  spec: {
    name: 'lookup',
    description: 'Look up',
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  },
  execute: (args: Record<string, unknown>) => {
    seen.push(args)
    return 'found'
  },
}
const extraKey = () => calls({ name: 'lookup', args: { q: 'a', drop: 'table' } })

async function run(tool: ToolInput, strict?: boolean) {
  seen.length = 0
  const provider = scripted([extraKey(), 'done'])
  const runtime = new Runtime({ provider, model: 'm', ...(strict === undefined ? {} : { strictArguments: strict }) })
  const result = await runtime.exec('go', { tools: [tool] })
  return { result, provider }
}

describe('strictArguments', () => {
  it('without it an undeclared key passes (zod strips it, JSON Schema hands it over)', async () => {
    expect((await run(zodTool())).result.receipts[0]?.status).toBe('ok')
    expect((await run(jsonTool)).result.receipts[0]?.status).toBe('ok')
    expect(seen).toEqual([{ q: 'a', drop: 'table' }])
  })

  it('on the runtime, rejects an undeclared key for zod and raw JSON Schema alike, and the body never runs', async () => {
    for (const tool of [zodTool(), jsonTool]) {
      const { result } = await run(tool, true)
      expect(result.status).toBe('completed')
      expect(result.receipts[0]?.status).not.toBe('ok')
      expect(JSON.stringify(result.history)).toContain('drop')
      expect(historyProblems(result.history)).toEqual([])
    }
    expect(seen).toEqual([])
  })

  it("a tool's own flag wins over the runtime's", async () => {
    expect((await run(zodTool(true), false)).result.receipts[0]?.status).not.toBe('ok')
    expect((await run(zodTool(false), true)).result.receipts[0]?.status).toBe('ok')
  })

  it('sends additionalProperties: false to the model for a strict tool', async () => {
    const { provider } = await run(zodTool(true))
    expect(JSON.stringify(provider.requests[0])).toContain('"additionalProperties":false')
    const loose = await run(jsonTool)
    expect(JSON.stringify(loose.provider.requests[0])).not.toContain('"additionalProperties":false')
  })

  it('a non-boolean strictArguments is invalid_options naming the key', () => {
    expect(() => new Runtime({ provider: scripted(['x']), model: 'm', strictArguments: 'yes' as never })).toThrow(
      /strictArguments/,
    )
  })
})
