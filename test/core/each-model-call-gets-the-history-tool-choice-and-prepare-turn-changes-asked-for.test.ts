import { describe, expect, it } from 'vitest'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { countingTools } from '../support/counting-tools.js'
import { calls, textOf } from '../support/run.js'

describe('what each model call receives', () => {
  it('toolChoice and parallelToolCalls are passed to the provider request', async () => {
    const { a } = countingTools()
    const provider = scripted(['ok'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a], toolChoice: 'none', parallelToolCalls: false })
    expect(provider.requests[0]).toMatchObject({ toolChoice: 'none', parallelToolCalls: false })
  })

  it('a forced choice applies to one round and then falls back to auto (resetToolChoice default)', async () => {
    const { a } = countingTools()
    const provider = scripted([calls({ name: 'a' }), calls({ name: 'a', args: { again: 1 } }), 'done'])
    await new Runtime({ provider, model: 'm' }).exec('go', { tools: [a], toolChoice: { type: 'function', name: 'a' } })
    expect(provider.requests.map((r) => r.toolChoice)).toEqual([{ type: 'function', name: 'a' }, 'auto', 'auto'])
  })

  it('with resetToolChoice false a forced choice stays', async () => {
    const { a } = countingTools()
    const provider = scripted([calls({ name: 'a' }), 'done'])
    await new Runtime({ provider, model: 'm', resetToolChoice: false }).exec('go', {
      tools: [a],
      toolChoice: 'required',
    })
    expect(provider.requests.map((r) => r.toolChoice)).toEqual(['required', 'required'])
  })

  it('prepareTurn changes model, visible tools, toolChoice and messages for one round only', async () => {
    const { a, b } = countingTools()
    const provider = scripted([calls({ name: 'a' }), 'done'])
    await new Runtime({
      provider,
      model: 'base',
      hooks: {
        prepareTurn: ({ iteration, messages }) =>
          iteration === 1
            ? {
                model: 'special',
                tools: ['a'],
                toolChoice: 'required',
                messages: [...messages, { role: 'user', content: 'hint' }],
              }
            : undefined,
      },
    }).exec('go', { tools: [a, b] })
    const [first, second] = provider.requests
    expect(first).toMatchObject({ model: 'special', toolChoice: 'required' })
    expect(first!.tools.map((t) => t.name)).toEqual(['a'])
    expect(first!.messages.map(textOf)).toEqual(['go', 'hint'])
    expect(second!.model).toBe('base')
    expect(second!.tools.map((t) => t.name)).toEqual(['a', 'b'])
    expect(second!.messages.map(textOf)).not.toContain('hint')
  })

  it('history and system prompt reach the model; messages holds only what this exec added', async () => {
    const provider = scripted(['reply'])
    const history = [{ role: 'user' as const, content: 'earlier' }]
    const result = await new Runtime({ provider, model: 'm', system: 'be brief' }).exec('now', { history })
    expect(provider.requests[0]).toMatchObject({ system: 'be brief' })
    expect(provider.requests[0]!.messages.map(textOf)).toEqual(['earlier', 'now'])
    expect(result.messages.map(textOf)).toEqual(['now', 'reply'])
    expect(result.history.map(textOf)).toEqual(['earlier', 'now', 'reply'])
  })
})
