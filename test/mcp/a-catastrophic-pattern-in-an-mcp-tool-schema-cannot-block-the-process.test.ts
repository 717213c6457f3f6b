import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/built.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

type Outcome = {
  status: string
  ran: number
  pattern: unknown
  results: { isError: boolean; text: string }[]
}

describe('a tool schema from an MCP server is untrusted input', () => {
  it(
    'a pattern that backtracks without end refuses the call instead of blocking the process; the tool still runs',
    { timeout: 300_000 },
    async () => {
      ensureBuilt()
      // In its own process, killed after a minute: on a check that blocks, the test fails, not hangs.
      const out = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [fileURLToPath(new URL('./fixtures/catastrophic-pattern.mjs', import.meta.url))],
          { cwd: root, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' },
          (error, stdout) => (error ? reject(error) : resolve(stdout)),
        ),
      )
      const outcome = JSON.parse(out.trim().split('\n').at(-1)!) as Outcome
      expect(outcome.pattern).toMatchObject({ properties: { code: { pattern: '^(a+)+$' } } })
      expect(outcome.status).toBe('completed')
      expect(outcome.results[0]).toMatchObject({
        isError: true,
        text: expect.stringContaining('a pattern of the schema'),
      })
      expect(outcome.results[1]).toEqual({ isError: false, text: 'found aaa' })
      expect(outcome.ran).toBe(1)
    },
  )
})
