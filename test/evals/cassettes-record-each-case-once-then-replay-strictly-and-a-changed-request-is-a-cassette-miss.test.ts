import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scripted } from '@nestor/providers'
import { evaluate, scorers, type EvaluateOptions } from '@nestor/evals'
import { cityAgent, cityModel } from './support.js'

describe('evaluate with cassettes', () => {
  it('records each case once live, then replays offline with the same report; a changed request is a cassette miss, not a score', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'evals-cassettes-')), 'trips')
    const live = cityModel()
    const agent = cityAgent()
    const judgeModel = scripted(() => '{"score":0.8,"reason":"names the city"}')
    const options = (system?: string): EvaluateOptions => ({
      name: 'cassettes',
      data: [
        { id: 'lisbon', input: 'Plan Lisbon', expected: 'Lisbon' },
        { id: 'porto', input: 'Plan Porto', expected: 'Porto' },
      ],
      cassettes: dir,
      task: (input, ctx) =>
        agent.runtime.exec(input as string, {
          tools: agent.tools,
          signal: ctx.signal,
          provider: ctx.provider!,
          ...(system ? { system } : {}),
        }),
      scorers: [
        scorers.includes(),
        scorers.judge({ provider: judgeModel, model: 'judge-m', rubric: 'Names the city' }),
      ],
    })
    const first = await evaluate({ ...options(), provider: live })
    expect(first.cases.map((c) => c.status)).toEqual(['completed', 'completed'])
    expect(live.requests).toHaveLength(4)
    expect(judgeModel.requests).toHaveLength(2)
    expect(readdirSync(dir).sort()).toEqual(['lisbon', 'porto'])
    // Two task calls and one judge call per case.
    expect(readdirSync(join(dir, 'lisbon'))).toHaveLength(3)
    expect(first.cases[0]!.scores.judge).toMatchObject({ score: 0.8, reason: 'names the city' })
    // The judge's tokens are its own, apart from the task's.
    expect(first.cases[0]!.scorerUsage.total).toBe(15)
    expect(first.cases[0]!.usage.total).toBe(30)
    expect(first.totals.scorerUsage.total).toBe(30)

    // Offline: no provider at all, the same scores, no model call.
    const again = await evaluate(options())
    expect(live.requests).toHaveLength(4)
    expect(judgeModel.requests).toHaveLength(2)
    expect(again.cases.map((c) => [c.status, c.scores])).toEqual(first.cases.map((c) => [c.status, c.scores]))

    // The prompt changed: every case is a cassette miss, not scored, and the eval fails saying so.
    const changed = await evaluate(options('Be brief.'))
    expect(changed.cases.map((c) => c.status)).toEqual(['cassette_miss', 'cassette_miss'])
    expect(changed.cases[0]!.scores).toEqual({})
    expect(changed.cases[0]!.error).toContain('the request changed since the recording')
    expect(changed.scorers.includes!.scored).toBe(0)
    expect(changed.passed).toBe(false)
    expect(changed.problems[0]).toContain('case lisbon: cassette_miss')

    // A new case without a recording and no live provider says what is missing.
    const extra = await evaluate({ ...options(), data: [{ id: 'rome', input: 'Plan Rome' }] })
    expect(extra.cases[0]).toMatchObject({ status: 'cassette_missing' })
    expect(extra.cases[0]!.error).toContain('no cassette for case rome')
    expect(existsSync(join(dir, 'rome'))).toBe(false)
  })
})
