import { describe, expect, it } from 'vitest'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { countingTools, toolResults } from '../support/counting-tools.js'
import { calls, historyProblems, textOf } from '../support/run.js'

describe('failed and cut-off model turns', () => {
  it('tool calls of a message cut off by the length limit are answered with error results and never executed', async () => {
    const { ran, a } = countingTools()
    const provider = scripted([
      { content: [{ type: 'toolCall', name: 'a', arguments: { x: 1 } }], stopReason: 'length' },
      'done',
    ])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    expect(ran).toEqual([])
    const [r] = toolResults(result.history)
    expect(r?.isError).toBe(true)
    expect(textOf(r!)).toContain('length limit')
    expect(result.status).toBe('completed')
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a provider error fails the exec with provider_error and keeps the history valid', async () => {
    const provider = scripted([calls({ name: 'a' }), { error: 'upstream exploded', status: 500 }])
    const { a } = countingTools()
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a] })
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('provider_error')
    expect(result.error?.message).toBe('upstream exploded')
    expect(result.history.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error' })
    expect(historyProblems(result.history)).toEqual([])
  })

  it('a provider that throws mid-stream is turned into a failed result, not a crash', async () => {
    const provider = {
      name: 'broken',
      // eslint-disable-next-line require-yield
      async *stream() {
        throw new Error('socket hang up')
      },
    }
    const result = await new Runtime({ provider, model: 'm' }).exec('go')
    expect(result.status).toBe('failed')
    expect(result.error?.message).toBe('socket hang up')
  })
})
