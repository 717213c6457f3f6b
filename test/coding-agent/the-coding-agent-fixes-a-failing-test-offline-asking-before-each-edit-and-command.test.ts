import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../examples/coding-agent/main.js'
import { scratchDir } from '../support/scratch-dir.js'

async function run(argv: string[]) {
  const repo = scratchDir('nestor-coding-agent-')
  let output = ''
  const code = await main(argv, { write: (text) => void (output += text), interactive: false, repo })
  return { code, output, repo }
}

describe('examples/coding-agent, offline from its committed cassette', () => {
  it('runs the failing test, finds and reads the code, edits it after showing the diff, and runs the tests again: they pass', async () => {
    const { code, output, repo } = await run(['--yes'])
    expect(code).toBe(0)
    expect(readFileSync(join(repo, 'src/slugify.js'), 'utf8')).toContain(".split(/\\s+/).join('-')")
    const asked = output.split('\n').filter((line) => line.startsWith('  ? '))
    expect(asked).toEqual(['  ? shell wants to:', '  ? edit_file wants to:', '  ? shell wants to:'])
    expect(output).toContain(
      "    -  return title.trim().toLowerCase().replace(' ', '-')\n    +  return title.trim().toLowerCase().split(/\\s+/).join('-')\n",
    )
    expect(output).toContain('not ok - slugify("  Lisbon in   May "): expected "lisbon-in-may", got "lisbon-in   may"')
    expect(output).toContain('  ✓ exit code 0\n    ok - slugify("Hello")')
    expect(output).toContain('│ Fixed: slugify now joins every word with one dash (src/slugify.js); all 3 tests pass.')
  })

  it('changes nothing when the first command is rejected', async () => {
    const { code, output, repo } = await run(['--no'])
    expect(code).toBe(0)
    expect(output).toContain('  ✗ rejected: the user said no')
    expect(output).toContain('│ I was not allowed to run the tests, so I changed nothing.')
    expect(readFileSync(join(repo, 'src/slugify.js'), 'utf8')).toContain(".replace(' ', '-')")
  })
})
