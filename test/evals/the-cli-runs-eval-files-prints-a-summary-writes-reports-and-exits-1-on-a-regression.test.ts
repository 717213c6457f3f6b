import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { EvalReport } from '@nestor/evals'

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'packages/evals/bundle/bin.js')
const fixtures = fileURLToPath(new URL('./fixtures/cli', import.meta.url))

type Outcome = { code: number; stdout: string; stderr: string }
function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: root, env: { ...process.env, ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

// `pnpm test` builds first (tsc -b); a bare `vitest run` on a fresh checkout has no dist/ and skips this file.
describe.skipIf(!existsSync(bin))('nestor-eval (the built bin, under plain node, through a pipe)', () => {
  it('writes a baseline, passes against it, and exits 1 listing the regression when the agent gets worse', async () => {
    const out = mkdtempSync(join(tmpdir(), 'nestor-eval-cli-'))
    const baseline = join(out, 'cities.baseline.json')
    const env = { CITIES_BASELINE: baseline }

    const update = await cli(
      [fixtures, '--update-baseline', '--json', join(out, 'report.json'), '--html', join(out, 'report.html')],
      env,
    )
    expect(update.code).toBe(0)
    expect(update.stdout).toContain(`baseline written: ${baseline}`)
    // Plain progress lines outside a terminal, one per case, no ANSI codes.
    expect(update.stderr).toContain('cities 3/3 ')
    expect(update.stderr).not.toMatch(/\u001b\[/)
    const written = JSON.parse(readFileSync(baseline, 'utf8')) as EvalReport
    expect(written).toMatchObject({ format: 'nestor-eval-report', version: 1, name: 'cities', passed: true })
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ name: 'cities' })
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<script type="application/json" id="report">')

    const same = await cli([fixtures], env)
    expect(same.code).toBe(0)
    expect(same.stdout).toMatch(/cities: passed · 3\/3 cases passed/)
    expect(same.stdout).toMatch(/includes\s+1\.000\s+100%\s+–\s+\+0\.000/)

    const worse = await cli([fixtures], { ...env, CITIES_WORSE: '1' })
    expect(worse.code).toBe(1)
    expect(worse.stdout).toContain('cities: FAILED')
    expect(worse.stdout).toContain('✗ includes mean fell from 100% to 0%')
    expect(worse.stdout).toContain('✗ case lisbon: includes fell from 1 to 0 (it passed in the baseline)')
  })

  it('applies --filter and --trials, and answers bad usage with exit 2', async () => {
    const filtered = await cli([fixtures, '--filter', 'porto', '--trials', '2', '--concurrency', '1'])
    expect(filtered.code).toBe(0)
    expect(filtered.stdout).toContain('1/1 cases passed')
    expect(filtered.stderr).toContain('cities 1/1 porto completed')
    const bad = await cli([fixtures, '--trails', '2'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unknown option --trails')
    const none = await cli([join(fixtures, 'cities.eval.mjs'), '--concurrency', '0'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('--concurrency takes a positive integer')
  })
})
