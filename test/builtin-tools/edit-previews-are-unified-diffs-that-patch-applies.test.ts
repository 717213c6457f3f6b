import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fileTools } from '@nestor/tools'
import { scratchDir } from '../support/scratch-dir.js'
import { preview } from './call.js'

// Texts from a few short lines, so that random edits repeat lines and the alignment has choices to make.
const text = fc
  .array(fc.constantFrom('a', 'b', 'c', '', '}', '  return x'), { maxLength: 14 })
  .chain((lines) => fc.boolean().map((finalNewline) => lines.join('\n') + (finalNewline && lines.length ? '\n' : '')))

describe('the preview of write_file', () => {
  it('is a unified diff that GNU patch applies to the old text to give exactly the new one', async () => {
    const root = scratchDir('nestor-diff-')
    const tools = fileTools({ root })
    await fc.assert(
      fc.asyncProperty(text, text, async (before, after) => {
        writeFileSync(join(root, 'f.txt'), before)
        const diff = (await preview(tools, 'write_file', { path: 'f.txt', content: after })) as string
        if (before === after) {
          expect(diff).toBe('--- a/f.txt\n+++ b/f.txt\n(no change)\n')
          return
        }
        writeFileSync(join(root, 'p.diff'), diff)
        execFileSync('patch', ['-s', '-o', 'patched.txt', 'f.txt', 'p.diff'], { cwd: root })
        expect(readFileSync(join(root, 'patched.txt'), 'utf8')).toBe(after)
      }),
      { numRuns: 60 },
    )
  })
})
