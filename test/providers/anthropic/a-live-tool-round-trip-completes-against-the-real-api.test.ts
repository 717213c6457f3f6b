import { liveTestsEnabled } from '@nestor/agents/conformance'
import { describe, expect, it } from 'vitest'
import { Runtime, defineTool } from '@nestor/core'
import { anthropic } from '@nestor/providers'

// Talks to the real API: only with NESTOR_LIVE_TESTS=1 and ANTHROPIC_API_KEY set.
const live = liveTestsEnabled() && !!process.env.ANTHROPIC_API_KEY
const model = process.env.NESTOR_ANTHROPIC_MODEL ?? 'claude-haiku-4-5'

describe.skipIf(!live)('anthropic live', () => {
  it('runs one tool round trip against the real API', async () => {
    let calls = 0
    const add = defineTool({
      name: 'add',
      description: 'Add two integers and return the sum',
      parameters: {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' } },
        required: ['a', 'b'],
      },
      execute: async (args) => {
        calls++
        const { a, b } = args as { a: number; b: number }
        return String(a + b)
      },
    })
    const provider = anthropic({ maxTokens: 512 })
    const runtime = new Runtime({ provider, model })
    const result = await runtime.exec('Use the add tool to add 1234 and 4321, then reply with just the number.', {
      tools: [add],
      toolChoice: 'required',
    })
    expect(result.status).toBe('completed')
    expect(calls).toBeGreaterThanOrEqual(1)
    expect(result.text).toContain('5555')
    expect(JSON.stringify(result)).not.toContain(process.env.ANTHROPIC_API_KEY!)
  }, 60_000)
})
