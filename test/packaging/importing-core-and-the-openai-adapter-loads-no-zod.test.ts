import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/built.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

// zod costs about as much to load as an SDK: core builds its schemas at their first use, so a
// cold start that only imports Nestor does not pay it.
describe('importing @nestor/core and @nestor/providers/openai', () => {
  it('loads no zod module; the first runtime made still checks its options', { timeout: 300_000 }, () => {
    ensureBuilt()
    const out = execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./fixtures/import-core-and-openai.mjs', import.meta.url))],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    )
    const seen = JSON.parse(out.trim().split('\n').at(-1)!) as { atImport: string[]; runtime: string }
    expect(seen.atImport).toEqual([])
    expect(seen.runtime).toBe('function')
  })

  it('an exec with right options and a raw JSON Schema tool loads no zod and no Ajv; a wrong option loads zod to say what is wrong', () => {
    const out = execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./fixtures/exec-with-a-json-schema-tool.mjs', import.meta.url))],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    )
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      status: 'completed',
      afterExec: ['@cfworker/json-schema'],
      wrongOption: 'invalid_options',
      afterError: ['@cfworker/json-schema', 'zod'],
    })
  })
})
