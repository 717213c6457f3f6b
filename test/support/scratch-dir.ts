import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'

/**
 * A new empty directory (under the OS temp dir unless `parent` is given), removed with everything
 * in it when the current test finishes, passed or failed: a suite run leaves nothing behind.
 * Call it inside a test.
 */
export function scratchDir(prefix: string, parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
