import { describe, expect, it } from 'vitest'
import { evaluate, scorers, type Scorer } from '@nestor/evals'
import { z } from 'zod'
import { cityAgent } from './support.js'

const data = [
  { id: 'lisbon', input: 'Plan Lisbon', expected: 'Lisbon' },
  { id: 'porto', input: 'Plan Porto', expected: 'Porto' },
  { id: 'wrong', input: 'Plan Rome', expected: 'Lisbon' },
]

describe('evaluate', () => {
  it('scores every case with every scorer and sums them up per scorer', async () => {
    const agent = cityAgent()
    const short: Scorer = { name: 'short', score: (_c, r) => (r.text.length < 40 ? 1 : 0) }
    const report = await evaluate({
      name: 'cities',
      data,
      task: (input, ctx) => agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal }),
      scorers: [
        scorers.includes(),
        scorers.toolCalls([{ name: 'lookup', args: { city: 'Lisbon' } }]),
        scorers.regex(/sunny/),
        short,
      ],
    })
    expect(report.format).toBe('nestor-eval-report')
    expect(report.cases.map((c) => [c.id, c.status, c.scores.includes?.score, c.scores.toolCalls?.score])).toEqual([
      ['lisbon', 'completed', 1, 1],
      ['porto', 'completed', 1, 0],
      ['wrong', 'completed', 0, 0],
    ])
    expect(report.cases[2]!.scores.includes!.reason).toContain('"Lisbon"')
    expect(report.cases[1]!.scores.toolCalls!.reason).toContain('called: lookup')
    expect(report.scorers.includes).toMatchObject({ mean: 0.666667, passRate: 0.666667, scored: 3 })
    expect(report.scorers.regex).toMatchObject({ mean: 1, passRate: 1 })
    expect(report.totals).toMatchObject({ cases: 3, passed: 1, byStatus: { completed: 3 } })
    // Two model turns of 15 tokens per case (the scripted model's usage).
    expect(report.cases[0]!.usage.total).toBe(30)
    expect(report.totals.usage.total).toBe(90)
    expect(report.cases[0]!.tree).toMatchObject({
      name: 'root',
      status: 'completed',
      tools: [{ toolName: 'lookup', args: { city: 'Lisbon' } }],
    })
    expect(report.passed).toBe(true)
  })

  it('makes a throwing or failing task a failed case scored 0, and a throwing scorer a 0 with its error', async () => {
    const agent = cityAgent()
    const report = await evaluate({
      name: 'failures',
      data: [
        { id: 'ok', input: 'Plan Lisbon' },
        { id: 'throws', input: 'throw' },
        { id: 'budget', input: 'Plan Porto' },
      ],
      task: (input) => {
        if (input === 'throw') throw new Error('task exploded')
        return agent.runtime.exec(input as string, {
          tools: agent.tools,
          maxIterations: input === 'Plan Porto' ? 1 : 5,
        })
      },
      scorers: [
        scorers.regex(/sunny/),
        {
          name: 'broken',
          score: () => {
            throw new Error('scorer bug')
          },
        },
        scorers.schema(z.object({ city: z.string() })),
      ],
    })
    const [ok, throws, budget] = report.cases
    expect(ok).toMatchObject({ status: 'completed', scores: { regex: { score: 1 }, broken: { score: 0 } } })
    expect(ok!.scores.broken!.reason).toBe('the scorer threw: scorer bug')
    expect(ok!.scores.schema).toMatchObject({ score: 0, reason: 'the answer is not JSON' })
    expect(throws).toMatchObject({
      status: 'failed',
      error: 'the task threw: task exploded',
      scores: { regex: { score: 0 } },
    })
    expect(budget!.status).toBe('failed')
    expect(budget!.error).toContain('iteration_limit')
    expect(report.scorers.regex).toMatchObject({ mean: 0.333333, scored: 3 })
  })

  it('runs at most `concurrency` cases at once, repeats trials and reports their spread', async () => {
    let running = 0
    let most = 0
    let n = 0
    const report = await evaluate({
      name: 'trials',
      data: Array.from({ length: 6 }, (_, i) => ({ id: `c${i}`, input: i })),
      trials: 3,
      concurrency: 2,
      task: async () => {
        running++
        most = Math.max(most, running)
        await new Promise((r) => setImmediate(r))
        running--
        const agent = cityAgent()
        // Every other run answers Porto: a flaky agent.
        return agent.runtime.exec(n++ % 2 ? 'Plan Porto' : 'Plan Lisbon', { tools: agent.tools })
      },
      scorers: [scorers.includes('Lisbon')],
    })
    expect(most).toBe(2)
    expect(n).toBe(18)
    for (const c of report.cases) {
      expect(c.trials).toHaveLength(3)
      expect(c.spread!.includes!.max - c.spread!.includes!.min).toBe(1)
      expect(c.scores.includes!.score).toBeCloseTo(c.trials.filter((t) => t.scores.includes!.score === 1).length / 3, 5)
    }
    expect(report.scorers.includes!.mean).toBeCloseTo(0.5, 5)
  })

  it('aborts a case past timeoutMs and reports it as a timeout, and the eval signal stops cases not started', async () => {
    const agent = cityAgent()
    const stuck = await evaluate({
      name: 'timeouts',
      data: [
        { id: 'slow', input: 'slow' },
        { id: 'fast', input: 'Plan Lisbon' },
      ],
      // Room for the fast case on a loaded machine; the slow one only ends at the abort.
      timeoutMs: 3_000,
      task: (input, ctx) =>
        input === 'slow'
          ? new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))))
          : agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal }),
      scorers: [scorers.regex(/sunny/)],
    })
    expect(stuck.cases.map((c) => c.status)).toEqual(['timeout', 'completed'])
    expect(stuck.cases[0]!.scores.regex!.score).toBe(0)

    const controller = new AbortController()
    const stopped = await evaluate({
      name: 'abort',
      data: [
        { id: 'a', input: 'Plan Lisbon' },
        { id: 'b', input: 'Plan Porto' },
      ],
      concurrency: 1,
      signal: controller.signal,
      task: (input, ctx) => {
        controller.abort()
        return agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal })
      },
      scorers: [scorers.regex(/sunny/)],
    })
    expect(stopped.cases.map((c) => c.status)).toEqual(['aborted', 'aborted'])
    expect(stopped.passed).toBe(false)
    expect(stopped.problems.join('\n')).toContain('case b: aborted')
  })
})
