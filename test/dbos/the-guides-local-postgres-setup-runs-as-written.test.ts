import { expect, it, vi } from 'vitest'
import { exampleOf, guide, runExample } from '../support/doc-example.js'

it(
  "docs/dbos.md's local Postgres block runs as written: starts, answers a query, stops",
  { timeout: 120_000 },
  async () => {
    const code = exampleOf(
      guide('dbos.md'),
      '// fragment (a whole program; test/dbos runs it as written): a throwaway local Postgres',
    )
    expect(code).toBeDefined()
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined)
    try {
      await runExample(code!, 'nestor-dbos-doc-')
      expect(log.mock.calls).toEqual([['postgresql://postgres:local-only@127.0.0.1:PORT/trip_planner', 1]])
    } finally {
      log.mockRestore()
    }
  },
)
