import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NestorError, Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { evaluate, loadCases, scorers } from '@nestor/evals'

const dir = mkdtempSync(join(tmpdir(), 'evals-bad-'))
const file = (name: string, text: string) => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const task = () => {
  throw new Error('never run')
}
const rejection = async (p: Promise<unknown>) => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(NestorError.isInstance(error)).toBe(true)
  return error as NestorError
}

describe('bad input to evaluate', () => {
  it('a JSONL dataset: reads cases in order, and a malformed line fails naming its line number', async () => {
    const good = file('good.jsonl', '{"input":"a","expected":"A"}\n\n{"id":"b","input":"b"}\n')
    expect((await loadCases(good)).map((c) => [c.id, c.input])).toEqual([
      [expect.stringMatching(/^case-[0-9a-f]{12}$/), 'a'],
      ['b', 'b'],
    ])
    const broken = file('broken.jsonl', '{"input":"a"}\n{"input":"b"}\n{"input": oops}\n')
    const error = await rejection(evaluate({ name: 'x', data: broken, task, scorers: [scorers.exact()] }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(`line 3 of ${broken} is not JSON`)
    const notACase = file('not-a-case.jsonl', '{"input":"a"}\n{"question":"b"}\n')
    expect((await rejection(loadCases(notACase))).message).toContain(`${notACase}:2 is not a case`)
    const typo = file('typo.jsonl', '{"input":"a","expcted":"A"}\n')
    expect((await rejection(loadCases(typo))).message).toContain('unknown key expcted')
    expect(
      (
        await rejection(
          loadCases([
            { id: 'a', input: 1 },
            { id: 'a', input: 2 },
          ]),
        )
      ).message,
    ).toContain('repeats case id a')
  })

  it('an unknown scorer option or evaluate option is invalid_options naming the nearest key, before any case runs', async () => {
    const thrown = (f: () => unknown) => {
      try {
        f()
      } catch (error) {
        return error as NestorError
      }
      throw new Error('did not throw')
    }
    const e1 = thrown(() => scorers.toolCalls(['a'], { ordr: true } as never))
    expect(e1.code).toBe('invalid_options')
    expect(e1.message).toContain('ordr')
    expect(e1.message).toContain('order')
    expect(thrown(() => scorers.includes('x', { caseSensitiv: true } as never)).code).toBe('invalid_options')
    expect(
      thrown(() => scorers.judge({ provider: scripted([]), model: 'm', rubric: 'r', rubrik: 'x' } as never)).code,
    ).toBe('invalid_options')
    const e2 = await rejection(evaluate({ name: 'x', data: [], task, scorers: [], concurency: 2 } as never))
    expect(e2.message).toContain('concurency')
    const e3 = await rejection(
      evaluate({ name: 'x', data: [], task, scorers: [scorers.exact()], thresholds: { includes: 1 } }),
    )
    expect(e3.message).toContain('thresholds.includes names no scorer')
  })

  it('a JSONL line nested too deep is invalid_options naming the file and line, not a RangeError', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const nested = file('deep.jsonl', `{"input":"a"}\n{"input":${deep}}\n`)
    const error = await rejection(loadCases(nested))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(`${nested}:2 nests deeper than`)
    // A case as deep as a real prompt structure still loads.
    const fine = file('fine.jsonl', `{"input":${'['.repeat(50)}"a"${']'.repeat(50)}}\n`)
    expect(await loadCases(fine)).toHaveLength(1)
  })

  it('case ids . and .. are refused, and nothing is written outside the cassette folder', async () => {
    const base = mkdtempSync(join(tmpdir(), 'evals-dots-'))
    const cassettes = join(base, 'cassettes')
    mkdirSync(cassettes)
    for (const id of ['.', '..', '...']) {
      const data = file(`dots-${id.length}.jsonl`, `${JSON.stringify({ id, input: 'hi' })}\n`)
      const error = await rejection(
        evaluate({
          name: 'x',
          data,
          // The exec takes the case's cassette: on the old rule it recorded into dir/<id>.
          task: (input) => new Runtime({ provider: scripted([]), model: 'm' }).exec(String(input)),
          scorers: [scorers.exact()],
          provider: scripted(['hello']),
          cassettes,
        }),
      )
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain(`${data}:1 has an id that is not`)
    }
    expect(readdirSync(base)).toEqual(['cassettes'])
    expect(readdirSync(cassettes)).toEqual([])
  })

  it('a cassette folder missing in replay mode says so', async () => {
    const missing = join(dir, 'no-such-cassettes')
    const error = await rejection(
      evaluate({
        name: 'x',
        data: [{ input: 'a' }],
        task,
        scorers: [scorers.exact()],
        cassettes: { dir: missing, mode: 'replay' },
      }),
    )
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(`the cassette folder ${missing} does not exist (replay mode)`)
  })
})
