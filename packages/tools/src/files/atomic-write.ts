import { randomBytes } from 'node:crypto'
import { mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { Root } from './confine.js'

/**
 * Writes `content` to `real` whole or not at all: into a new temporary file beside it (same
 * directory, so the rename cannot cross file systems), flushed, then renamed over the target. A
 * failure at any step removes the temporary file and leaves the target as it was. An existing
 * file keeps its permission bits.
 */
export async function writeWhole(root: Root, shown: string, real: string, content: string): Promise<void> {
  const dir = dirname(real)
  await mkdir(dir, { recursive: true })
  // The directories just made: check again that the place is still inside the root.
  root.mustContain(shown, await realpath(dir))
  const mode = await stat(real).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  )
  const temp = join(dir, `.${basename(real)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, 'wx', mode ?? 0o666)
  try {
    await root.checkOpened(shown, handle)
    await handle.writeFile(content, 'utf8')
    if (mode !== undefined) await handle.chmod(mode)
    await handle.sync()
    await handle.close()
    await rename(temp, real)
  } catch (error) {
    await handle.close().catch(() => {})
    await unlink(temp).catch(() => {})
    throw error
  }
}
