import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { cli } from '@nestor/evals'

const fixtures = fileURLToPath(new URL('./fixtures/cli', import.meta.url))
const sink = (isTTY: boolean) => {
  const out = { text: '', isTTY, write: (t: string) => void (out.text += t) }
  return out
}

describe('nestor-eval progress', () => {
  it('redraws one bar line in a terminal, and writes one plain line per case elsewhere', async () => {
    const tty = sink(true)
    expect(await cli([fixtures], { stdout: sink(false), stderr: tty, cwd: process.cwd() })).toBe(0)
    expect(tty.text).toContain('\r\u001b[2Kcities [████████████████████████] 3/3 ')
    expect(tty.text.split('\n').filter((l) => l.includes('1/3'))).toHaveLength(1)

    const pipe = sink(false)
    const stdout = sink(false)
    expect(await cli([fixtures], { stdout, stderr: pipe, cwd: process.cwd() })).toBe(0)
    expect(pipe.text).not.toContain('\r')
    expect(pipe.text.split('\n').filter((l) => /^cities \d\/3 /.test(l))).toHaveLength(3)
    expect(stdout.text).toMatch(/^cities: passed/)
  })
})
