import { runToolLoopConformance, CONFORMANCE_PROMPT } from '@nestor/agents/conformance'
import { Runtime } from '@nestor/core'
import { replay } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { cassetteDir, main } from '../../examples/conformance/main.js'
import { ANSWER, followsTheWorkflow } from './models.js'

describe('tool-loop conformance: a model that follows the workflow passes', () => {
  it('passes with one call per turn in order and the final answer', async () => {
    const outcome = await runToolLoopConformance({ provider: followsTheWorkflow(), model: 'scripted' })
    expect(outcome.violations).toEqual([])
    expect(outcome.passed).toBe(true)
    expect(outcome.turns).toBe(4)
    expect(outcome.observations.map((o) => [o.name, o.turn])).toEqual([
      ['read_fixture', 1],
      ['run_fixture_test', 2],
      ['write_fixture_patch', 3],
    ])
    expect(outcome.finalAnswer).toBe(ANSWER)
  })

  it('runs on a given runtime too', async () => {
    const runtime = new Runtime({ provider: followsTheWorkflow(), model: 'scripted' })
    expect((await runToolLoopConformance({ runtime })).passed).toBe(true)
  })

  it('holds only call observations and the answer: no tool output, no prompt', async () => {
    const outcome = await runToolLoopConformance({ provider: followsTheWorkflow(), model: 'scripted' })
    const text = JSON.stringify(outcome)
    expect(text).not.toContain('return a - b') // read_fixture's output
    expect(text).not.toContain('1 failed') // run_fixture_test's report
    expect(text).not.toContain(CONFORMANCE_PROMPT.slice(0, 40))
    expect(Object.keys(outcome).sort()).toEqual([
      'finalAnswer',
      'model',
      'observations',
      'passed',
      'provider',
      'turns',
      'violations',
    ])
  })

  it('cuts the final answer to 500 characters', async () => {
    const long = 'x'.repeat(2000)
    const { scripted } = await import('@nestor/providers')
    const calls = (name: string, args: Record<string, unknown>) => ({
      content: [{ type: 'toolCall' as const, name, arguments: args }],
    })
    const provider = scripted([
      calls('read_fixture', { fixture_id: 'calc-add' }),
      calls('run_fixture_test', { fixture_id: 'calc-add' }),
      calls('write_fixture_patch', { fixture_id: 'calc-add', patch: 'p' }),
      long,
    ])
    const outcome = await runToolLoopConformance({ provider, model: 'scripted' })
    expect(outcome.finalAnswer).toHaveLength(500)
  })

  it('the committed cassette replays offline (strict) and passes — what CI runs', async () => {
    const outcome = await runToolLoopConformance({
      provider: replay({ dir: cassetteDir(), mode: 'strict' }),
      model: 'scripted-conformance',
    })
    expect(outcome.error).toBeUndefined()
    expect(outcome.passed).toBe(true)
  })

  it('the CLI defaults to that cassette and exits 0', async () => {
    const lines: string[] = []
    expect(await main([], (line) => lines.push(line))).toBe(0)
    expect(lines.at(-1)).toBe('PASS in 4 turns')
  })

  it('a provider failure is reported as an error, not as a verdict on the model', async () => {
    const { scripted } = await import('@nestor/providers')
    const outcome = await runToolLoopConformance({
      provider: scripted([{ error: 'upstream exploded', status: 400 }]),
      model: 'scripted',
    })
    expect(outcome.passed).toBe(false)
    expect(outcome.violations).toEqual([])
    expect(outcome.failureClass).toBeUndefined()
    expect(outcome.error).toContain('upstream exploded')
  })
})
