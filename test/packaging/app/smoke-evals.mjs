// @nestor/evals from the packed tarball: an eval of two cases recorded to cassettes from a scripted
// model, replayed offline, and the nestor-eval bin's help.
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers/testing'
import { evaluate, scorers, toHtmlReport } from '@nestor/evals'

const dir = join(mkdtempSync(join(tmpdir(), 'smoke-evals-')), 'cassettes')
const runtime = new Runtime({ provider: scripted([]), model: 'test-model' })
const options = {
  name: 'smoke',
  data: [
    { id: 'lisbon', input: 'Plan Lisbon', expected: 'Lisbon' },
    { id: 'porto', input: 'Plan Porto', expected: 'Porto' },
  ],
  task: (input, ctx) => runtime.exec(input, { signal: ctx.signal, provider: ctx.provider }),
  scorers: [scorers.includes()],
  cassettes: dir,
}
const live = scripted((request) => `Three days in ${String(request.messages[0].content).slice(5)}`)
await evaluate({ ...options, provider: live })
const offline = await evaluate({ ...options, cassettes: { dir, mode: 'replay' } })
const help = execFileSync(process.execPath, ['node_modules/@nestor/evals/bundle/bin.js', '--help'], {
  encoding: 'utf8',
})
console.log(
  JSON.stringify({
    statuses: offline.cases.map((c) => c.status),
    mean: offline.scorers.includes.mean,
    liveCalls: live.requests.length,
    // The report inlines @nestor/web's exec tree, found beside the installed package.
    html:
      toHtmlReport(offline).startsWith('<!doctype html>') && toHtmlReport(offline).includes('window.NestorExecTree ='),
    help: help.startsWith('usage: nestor-eval'),
  }),
)
