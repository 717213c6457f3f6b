import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const built = fileURLToPath(new URL('../../examples/dist/demo/main.js', import.meta.url))

// `pnpm test` builds first (tsc -b), so the compiled demo exists; a bare `vitest run` on a
// fresh checkout has no dist/ and skips this file.
describe.skipIf(!existsSync(built))('the built demo (what `pnpm demo` runs) under plain node', () => {
  it('runs offline through a pipe: exit 0, no ANSI codes, nesting, budgets and the approval in the output', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [built], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '1' },
      timeout: 20_000,
    })
    expect(stdout).not.toMatch(/\u001b\[/)
    expect(stdout).toContain('    ▶ research (depth 1)')
    expect(stdout).toContain('step 3/20')
    expect(stdout).toContain('auto-approved: not an interactive terminal')
    expect(stdout).toContain('usage: ')
  })
})
