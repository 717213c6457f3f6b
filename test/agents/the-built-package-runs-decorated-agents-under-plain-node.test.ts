import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ensureBuilt } from '../support/built.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

describe('the built @nestor/agents under plain node', () => {
  it('runs a tsc-compiled decorated agent (nesting included) and the decorator-free form', { timeout: 300_000 }, () => {
    ensureBuilt()
    const out = execFileSync(
      process.execPath,
      [fileURLToPath(new URL('./fixtures/built-package.mjs', import.meta.url))],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    const seen = JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>

    expect(seen).toMatchObject({
      status: 'completed',
      text: 'root answer',
      rootTools: [
        { name: 'search', properties: ['q'] },
        { name: 'investigate', properties: ['topic'] },
      ],
      nestedTools: ['search', 'fact_check'],
      plainResult: '42',
    })
    const nested = seen.nested as { type: string; parent: boolean }[]
    expect(nested.map((e) => e.type)).toEqual(expect.arrayContaining(['agent_start', 'tool_end', 'agent_end']))
    expect(nested.every((e) => e.parent)).toBe(true)
  })
})
