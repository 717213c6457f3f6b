import { describe, expect, it } from 'vitest'
import { memoryJournal, type ExecResult } from '@nestor/core'
import { evaluate, scorers, type ExecNode, type ScoreContext, type ScoreResult, type Scorer } from '@nestor/evals'
import { z } from 'zod'
import { cityAgent } from './support.js'

const result = (text: string, output?: unknown) => ({ text, output, status: 'completed' }) as unknown as ExecResult
const call = (toolName: string, args: Record<string, unknown> = {}, children: ExecNode[] = []) => ({
  toolCallId: toolName,
  toolName,
  args,
  children,
})
const tree: ExecNode = {
  execId: 'e0',
  name: 'root',
  depth: 0,
  tools: [
    call('research', { q: 'lisbon' }, [
      { execId: 'e1', name: 'research', depth: 1, tools: [call('search', { query: 'lisbon' })] },
    ]),
    call('budget', { total: 900 }),
  ],
}
const ctx = { signal: new AbortController().signal, tree, provider: (p) => p } satisfies ScoreContext
const score = async (s: Scorer, expected: unknown, r: ExecResult): Promise<ScoreResult> => {
  const got = await s.score({ input: 'x', expected }, r, ctx)
  return typeof got === 'number' ? { score: got } : got
}

describe('the built-in scorers', () => {
  it('exact compares trimmed text (case-sensitive unless asked) or the typed output deeply', async () => {
    expect((await score(scorers.exact(), 'Lisbon', result(' Lisbon\n'))).score).toBe(1)
    expect((await score(scorers.exact(), 'Lisbon', result('lisbon'))).score).toBe(0)
    expect((await score(scorers.exact({ caseSensitive: false }), 'Lisbon', result('lisbon'))).score).toBe(1)
    expect(
      (await score(scorers.exact(), { city: 'Lisbon', days: 3 }, result('{}', { days: 3, city: 'Lisbon' }))).score,
    ).toBe(1)
  })

  it('includes gives the share of strings found; regex matches; schema takes zod or raw JSON Schema', async () => {
    expect(await score(scorers.includes(), ['Lisbon', 'May', 'jacket'], result('Lisbon in may'))).toEqual({
      score: 2 / 3,
      reason: 'missing "jacket"',
    })
    expect((await score(scorers.regex(/€\d+/), undefined, result('total €743'))).score).toBe(1)
    const json = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
    expect((await score(scorers.schema(json), undefined, result('{"city":"Lisbon"}'))).score).toBe(1)
    const bad = await score(scorers.schema(z.object({ city: z.string() })), undefined, result('{"town":"Lisbon"}'))
    expect(bad.score).toBe(0)
    expect(bad.reason).toContain('city')
  })

  it('toolCalls reads the whole tree, in order or as a set, with arguments as a subset, and exact counts extra calls', async () => {
    expect(
      (await score(scorers.toolCalls(['research', 'search', 'budget'], { order: true }), undefined, result(''))).score,
    ).toBe(1)
    expect((await score(scorers.toolCalls(['budget', 'research'], { order: true }), undefined, result(''))).score).toBe(
      0.5,
    )
    expect((await score(scorers.toolCalls(['budget', 'research']), undefined, result(''))).score).toBe(1)
    expect((await score(scorers.toolCalls(['search'], { rootOnly: true }), undefined, result(''))).score).toBe(0)
    expect(
      (await score(scorers.toolCalls([{ name: 'budget', args: { total: 900 } }]), undefined, result(''))).score,
    ).toBe(1)
    expect(
      (await score(scorers.toolCalls([{ name: 'budget', args: { total: 800 } }]), undefined, result(''))).score,
    ).toBe(0)
    const exact = await score(scorers.toolCalls(['research', 'budget'], { exact: true }), undefined, result(''))
    expect(exact).toEqual({ score: 2 / 3, reason: 'extra search (called: research, search, budget)' })
  })
})

describe('an eval whose cases fork a recorded run', () => {
  it('replays the recorded steps without running the tool, answers from the edited result, and leaves the recording as it was', async () => {
    const agent = cityAgent()
    const journal = memoryJournal()
    const recorded = await agent.runtime.exec('Plan Lisbon', { tools: agent.tools, journal, runId: 'lisbon-1' })
    expect(recorded.text).toBe('Trip to Lisbon: Lisbon is sunny')
    const entries = await journal.load('lisbon-1')
    const report = await evaluate({
      name: 'what-if',
      data: [
        { id: 'rain', input: 'Lisbon is rainy', expected: 'rainy' },
        { id: 'nothing', input: 'no results', expected: 'no results' },
      ],
      task: (toolResult, c) =>
        agent.runtime.fork(
          {
            journal,
            runId: 'lisbon-1',
            at: 'root#1:tool:call_Lisbon',
            edit: { toolResult: toolResult as string },
          },
          { runId: `lisbon-1-${c.case.id}`, tools: agent.tools, signal: c.signal },
        ),
      scorers: [scorers.includes()],
    })
    expect(report.cases.map((c) => [c.id, c.status, c.text])).toEqual([
      ['rain', 'completed', 'Trip to Lisbon: Lisbon is rainy'],
      ['nothing', 'completed', 'Trip to Lisbon: no results'],
    ])
    // The edited result shows as edited, never as a recorded (replayed) one.
    expect(report.cases[0]!.tree!.tools[0]).toMatchObject({
      toolName: 'lookup',
      edited: true,
      result: 'Lisbon is rainy',
    })
    expect(report.cases[0]!.tree!.tools[0]).not.toHaveProperty('replayed')
    expect(agent.counts.lookup).toBe(1)
    expect(await journal.load('lisbon-1')).toEqual(entries)
  })
})
