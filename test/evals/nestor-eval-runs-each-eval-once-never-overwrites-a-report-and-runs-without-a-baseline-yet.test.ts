import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../packages/evals/src/cli.js'
import { scratchDir } from '../support/scratch-dir.js'

// Eval files that import nothing (a temp folder resolves no package): each counts its task's runs
// on globalThis, so a test sees how often each eval ran in this process.
const evalFile = (name: string, counter: string, baseline?: string) => `export default {
  name: ${JSON.stringify(name)},
  data: [{ id: 'one', input: 'hi' }],
  task: (input) => {
    globalThis[${JSON.stringify(counter)}] = (globalThis[${JSON.stringify(counter)}] ?? 0) + 1
    return { status: 'completed', text: String(input), history: [], receipts: [] }
  },
  scorers: [{ name: 'always', score: () => 1 }],
  ${baseline ? `baseline: ${JSON.stringify(baseline)},` : ''}
}
`
function cli(argv: string[], cwd: string) {
  const out = { stdout: '', stderr: '' }
  const io = {
    stdout: { write: (text: string) => void (out.stdout += text) },
    stderr: { write: (text: string) => void (out.stderr += text) },
    cwd,
  }
  return main(argv, io).then((code) => ({ code, ...out }))
}
const runs = (counter: string) => (globalThis as Record<string, unknown>)[counter]

describe('nestor-eval', () => {
  it('runs an eval and its compiled twin once, and says which file it skipped', async () => {
    const dir = scratchDir('nestor-eval-twins-')
    mkdirSync(join(dir, 'dist'))
    writeFileSync(join(dir, 'trip.eval.ts'), evalFile('trip', '__twinRuns'))
    writeFileSync(join(dir, 'dist', 'trip.eval.js'), evalFile('trip', '__twinRuns'))
    const out = join(dir, 'reports')
    const { code, stderr } = await cli(['--json', out], dir)
    expect(code).toBe(0)
    expect(runs('__twinRuns')).toBe(1)
    expect(stderr).toMatch(/nestor-eval: skipping (dist\/trip\.eval\.js: the compiled twin|trip\.eval\.ts: the source)/)
    expect(readdirSync(out)).toEqual(['trip.json'])
  })

  it('refuses two evals of one name whose reports would overwrite each other, before running either', async () => {
    const dir = scratchDir('nestor-eval-names-')
    writeFileSync(join(dir, 'a.eval.mjs'), evalFile('trip', '__clashRuns'))
    writeFileSync(join(dir, 'b.eval.mjs'), evalFile('trip', '__clashRuns'))
    const { code, stderr } = await cli(['--json', join(dir, 'reports')], dir)
    expect(code).toBe(2)
    expect(stderr).toContain('two evals are named trip')
    expect(runs('__clashRuns')).toBeUndefined()
  })

  it('runs an eval whose baseline file is not written yet, warning where it looked', async () => {
    const dir = scratchDir('nestor-eval-baseline-')
    writeFileSync(join(dir, 'first.eval.mjs'), evalFile('first', '__firstRuns', 'first.baseline.json'))
    const { code, stdout } = await cli([], dir)
    expect(code).toBe(0)
    expect(stdout).toContain('first: passed')
    expect(stdout).toMatch(
      /! no baseline at first\.baseline\.json \(.*: a relative path resolves against the working directory, not the eval file\) yet/,
    )
  })

  it('says an eval file that holds decorators Node cannot parse needs target es2022', async () => {
    const dir = scratchDir('nestor-eval-decorators-')
    const source = `const tool = () => () => undefined
class Desk {
  @tool({ description: 'd' })
  look() { return 1 }
}
export default { name: 'desk', data: [{ input: 'x' }], task: () => new Desk(), scorers: [] }
`
    writeFileSync(join(dir, 'desk.eval.mjs'), source)
    const { code, stderr } = await cli([], dir)
    expect(code).toBe(2)
    expect(stderr).toMatch(
      /holds decorators \(@tool…\), which no Node runs yet: compile it with tsc's "target": "es2022"/,
    )
  })
})
