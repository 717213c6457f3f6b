import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type ExecRun, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { evaluate, scorers, toHtmlReport, toJsonReport, type EvaluateOptions } from '@nestor/evals'

const textOf = (m: Message) =>
  m.role === 'toolResult' ? m.content.map((c) => (c.type === 'text' ? c.text : '')).join('') : ''

/**
 * A model that learns the key from the tool, says it in a reply that also calls the tool again
 * (so the next request quotes that reply), then answers with it.
 */
const keyModel = () =>
  scripted((request) => {
    const results = request.messages.filter((m) => m.role === 'toolResult')
    const key = results[0] ? textOf(results[0]).replace('key=', '') : ''
    if (results.length === 0) return { content: [{ type: 'toolCall', id: 'call_1', name: 'read_key', arguments: {} }] }
    if (results.length === 1)
      return {
        content: [
          { type: 'text', text: `Found ${key}, checking again.` },
          { type: 'toolCall', id: 'call_2', name: 'read_key', arguments: {} },
        ],
      }
    return `All set: ${key}`
  })

/** The agent under evaluation: its runtime registers `secret`, which its tool hands the model. */
function task(secret: string): EvaluateOptions['task'] {
  const readKey = defineTool({
    name: 'read_key',
    description: 'Reads the API key',
    parameters: z.object({}),
    execute: () => `key=${secret}`,
  })
  const runtime = new Runtime({ provider: scripted([]), model: 'm', secrets: [secret] })
  return (input, ctx) =>
    runtime.exec(String(input), {
      tools: [readKey],
      signal: ctx.signal,
      ...(ctx.provider && { provider: ctx.provider }),
    })
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [readFileSync(join(dir, e.name), 'utf8')],
  )

describe("a runtime's secrets in an eval", () => {
  it('never reach a cassette or a report (JSON or HTML), and the recording replays under another value of the secret', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'evals-secrets-')), 'cassettes')
    const recorded = 'sk-live-RECORDED-1f2e3d4c'
    const options = (secret: string): EvaluateOptions => ({
      name: 'secrets',
      data: [{ id: 'key', input: 'Check my key', expected: 'All set' }],
      task: task(secret),
      // A scorer whose reason quotes the answer, as a judge's may.
      scorers: [scorers.includes(), { name: 'quote', score: (_c, result) => ({ score: 1, reason: result.text }) }],
      cassettes: dir,
    })
    const live = keyModel()
    const first = await evaluate({ ...options(recorded), provider: live })
    expect(first.cases[0]!.status).toBe('completed')
    expect(live.requests).toHaveLength(3)
    const files = filesUnder(dir)
    expect(files).toHaveLength(3)
    for (const file of files) expect(file).not.toContain(recorded)
    expect(files.join('\n')).toContain('[REDACTED]')
    for (const text of [toJsonReport(first), toHtmlReport(first)]) {
      expect(text).not.toContain(recorded)
      expect(text).toContain('All set: [REDACTED]')
    }
    expect(first.cases[0]!.scores.quote!.reason).toBe('All set: [REDACTED]')

    // CI holds another value of the key: offline, every request still finds its recording.
    const ci = 'sk-test-CI-ONLY-9a8b7c6d'
    const again = await evaluate({ ...options(ci), cassettes: { dir, mode: 'replay' } })
    expect(live.requests).toHaveLength(3)
    expect(again.cases[0]).toMatchObject({ status: 'completed', passed: true, text: 'All set: [REDACTED]' })
    expect(toJsonReport(again)).not.toContain(ci)
  })

  it('never reach a report without cassettes either, also when the task hands back a result rather than a run', async () => {
    const secret = 'sk-live-NOCASSETTE-77aa88bb'
    const run = task(secret)
    const report = await evaluate({
      name: 'secrets',
      data: [{ id: 'key', input: 'Check my key' }],
      // Awaited here, so evaluate sees no events: the tree is built from the result.
      task: async (input, ctx) => await (run(input, ctx) as ExecRun),
      scorers: [{ name: 'quote', score: (_c, result) => ({ score: 1, reason: result.text }) }],
      provider: keyModel(),
    })
    expect(report.cases[0]!.status).toBe('completed')
    for (const text of [toJsonReport(report), toHtmlReport(report)]) {
      expect(text).not.toContain(secret)
      expect(text).toContain('All set: [REDACTED]')
    }
  })
})
