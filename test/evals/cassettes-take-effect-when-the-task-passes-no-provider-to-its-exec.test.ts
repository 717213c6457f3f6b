import { mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Runtime, withProvider } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { evaluate, scorers, type EvaluateOptions } from '@nestor/evals'
import { cityAgent, cityModel } from './support.js'

describe('cassettes with a task that gives its exec no provider', () => {
  it('records from the live provider and replays strictly, never calling the runtime’s own provider', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'evals-scoped-')), 'trips')
    const own = cityModel()
    const agent = cityAgent(own)
    const live = cityModel()
    // The contract's task shape: no `provider: ctx.provider`.
    const options: EvaluateOptions = {
      name: 'scoped',
      data: [
        { id: 'lisbon', input: 'Plan Lisbon', expected: 'Lisbon' },
        { id: 'porto', input: 'Plan Porto', expected: 'Porto' },
      ],
      cassettes: dir,
      concurrency: 2,
      task: (input, ctx) => agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal }),
      scorers: [scorers.includes()],
    }
    const recorded = await evaluate({ ...options, provider: live })
    expect(recorded.cases.map((c) => [c.id, c.status, c.text])).toEqual([
      ['lisbon', 'completed', 'Trip to Lisbon: Lisbon is sunny'],
      ['porto', 'completed', 'Trip to Porto: Porto is sunny'],
    ])
    expect(live.requests).toHaveLength(4)
    expect(own.requests).toHaveLength(0)
    expect(readdirSync(join(dir, 'lisbon'))).toHaveLength(2)

    const replayed = await evaluate({ ...options, cassettes: { dir, mode: 'replay' } })
    expect(replayed.cases.map((c) => [c.status, c.scores])).toEqual(recorded.cases.map((c) => [c.status, c.scores]))
    expect(replayed.passed).toBe(true)
    expect(live.requests).toHaveLength(4)
    expect(own.requests).toHaveLength(0)
  })

  it('withProvider gives the scope’s provider to execs that name none, inherit none, also after an await', async () => {
    const own = scripted(() => 'own')
    const scoped = scripted(() => 'scoped')
    const explicit = scripted(() => 'explicit')
    const runtime = new Runtime({ provider: own, model: 'm' })
    const texts = await withProvider(scoped, async () => {
      const first = await runtime.exec('hi')
      const named = await runtime.exec('hi', { provider: explicit })
      const later = await runtime.exec('hi')
      return [first.text, named.text, later.text]
    })
    expect(texts).toEqual(['scoped', 'explicit', 'scoped'])
    expect((await runtime.exec('hi')).text).toBe('own')
    expect(() => withProvider({} as never, () => 1)).toThrow(/invalid option provider/)
  })
})
