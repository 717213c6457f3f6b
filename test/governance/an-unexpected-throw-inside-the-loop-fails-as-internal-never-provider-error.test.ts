import { describe, expect, it } from 'vitest'
import { Runtime, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect, historyProblems } from '../support/run.js'

describe('an unexpected throw inside the loop (neither a hook nor the provider)', () => {
  it('fails the exec as internal, never provider_error, and the call still has its result and receipt', async () => {
    // A hand-built tool whose validator breaks: nothing the loop expects to throw.
    const broken: Tool = {
      spec: { name: 'broken', description: 'Breaks', parameters: { type: 'object' } },
      validate: () => {
        throw new TypeError('cannot read properties of undefined')
      },
      execute: () => 'never',
    }
    const runtime = new Runtime({ provider: scripted([calls({ name: 'broken', id: 'c1' }), 'unreached']), model: 'm' })
    const { result } = await collect(runtime.exec('go', { tools: [broken] }))
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('internal')
    expect(result.error?.message).toContain('cannot read properties of undefined')
    expect(result.receipts.map((r) => r.toolCallId)).toEqual(['c1'])
    expect(historyProblems(result.history)).toEqual([])
  })
})
