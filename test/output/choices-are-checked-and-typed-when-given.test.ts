import { Runtime, type exec } from '@nestor/core'
import { Agent } from '@nestor/agents'
import { scripted } from '@nestor/providers'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'

const runtime = new Runtime({ provider: scripted(['{"reason":"ok","choice":"approve"}']), model: 'm' })

/** The invalid_options error exec throws for `options`, synchronously. */
const refusal = (options: Record<string, unknown>): { code?: string; message?: string } => {
  try {
    void runtime.exec('x', options as never)
  } catch (error) {
    return error as { code: string; message: string }
  }
  throw new Error('exec accepted the options')
}

describe('choices options', () => {
  it('refuse empty choices, as a list or a record', () => {
    for (const empty of [[], {}]) {
      const error = refusal({ choices: empty })
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain('invalid option choices: expected at least one choice')
    }
  })

  it('refuse a duplicate name, naming it', () => {
    const error = refusal({ choices: ['approve', 'reject', 'approve'] })
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain('invalid option choices: expected distinct names, got "approve"')
  })

  it('refuse names that are not non-empty strings, and record descriptions that are not strings', () => {
    for (const bad of [['approve', 3], ['approve', ''], [null]]) {
      const error = refusal({ choices: bad })
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain('invalid option choices: expected names that are non-empty strings')
    }
    const error = refusal({ choices: { approve: 'pay', reject: 1 } })
    expect(error.message).toContain('invalid option choices.reject: expected a description (a string)')
    expect(refusal({ choices: 'approve' }).message).toContain('invalid option choices')
  })

  it('refuse choices together with output', () => {
    const error = refusal({ choices: ['approve'], output: z.object({ x: z.string() }) })
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain('invalid option choices: expected not together with output')
  })

  it('take outputRetries as typed output does', async () => {
    const result = await runtime.exec('x', { choices: ['approve', 'reject'], outputRetries: 1 })
    expect(result.choice).toBe('approve')
  })

  it('type result.choice as the union of the names and result.output as { reason, choice }', async () => {
    const result = await runtime.exec('x', { choices: ['approve', 'reject'] })
    expectTypeOf(result.choice).toEqualTypeOf<'approve' | 'reject' | undefined>()
    expectTypeOf(result.output).toEqualTypeOf<{ reason: string; choice: 'approve' | 'reject' } | undefined>()
    const plain = await runtime.exec('x')
    expect(plain.choice).toBeUndefined()
    expectTypeOf<ReturnType<typeof exec<undefined, 'a' | 'b'>>>().toMatchTypeOf<Promise<{ choice?: 'a' | 'b' }>>()
  })

  it('an Agent with its own output schema decides when a call gives choices (its schema steps aside)', async () => {
    class Triage extends Agent {
      instructions = 'Triage refunds.'
      override output = z.object({ summary: z.string() })
    }
    const agent = new Triage({
      runtime: new Runtime({ provider: scripted(['{"reason":"ok","choice":"approve"}']), model: 'm' }),
    })
    const result = await agent.exec('Refund?', { choices: ['approve', 'reject'] })
    expect(result.status).toBe('completed')
    expect(result.choice).toBe('approve')
    expectTypeOf(result.choice).toEqualTypeOf<'approve' | 'reject' | undefined>()
  })
})
