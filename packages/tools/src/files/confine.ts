import { lstat, readlink, realpath } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { ToolRefusal } from '../define.js'

/** A path inside the root: the real file it names and how the model sees it (relative, `/`-separated). */
export type InsidePath = { real: string; shown: string }

const isInside = (root: string, path: string): boolean => {
  const rel = relative(root, path)
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}

const code = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code

/**
 * Every path a model gives is resolved here: lexically first (`..` may not climb out), then through
 * the file system with realpath, so a symlink anywhere on the way that leads out is refused too.
 * Opened files are checked once more by the path the kernel holds for the descriptor, which closes
 * the race of a directory swapped for a symlink between the check and the open (Linux).
 */
export class Root {
  private constructor(
    /** The root as given, resolved: what absolute paths from the model are compared with. */
    readonly given: string,
    /** The root with every symlink resolved. */
    readonly real: string,
  ) {}

  static async open(root: string): Promise<Root> {
    const given = resolve(root)
    const real = await realpath(given).catch(() => {
      throw new ToolRefusal('the root directory of the file tools does not exist')
    })
    return new Root(given, real)
  }

  /** The root-relative form the model sees. */
  show(real: string): string {
    return relative(this.real, real).split(sep).join('/') || '.'
  }

  /** Where `path` points before symlinks: refused when it names a place outside the root. */
  lexical(path: string): string {
    if (typeof path !== 'string' || path.includes('\0')) throw new ToolRefusal('refused: the path is not a valid path')
    const abs = isAbsolute(path) ? resolve(path) : resolve(this.real, path)
    if (isInside(this.real, abs)) return abs
    if (isInside(this.given, abs)) return join(this.real, relative(this.given, abs))
    throw new ToolRefusal(
      `refused: ${path} is outside the root (paths are relative to the root, which they cannot leave)`,
    )
  }

  /** An existing file or directory inside the root, symlinks resolved. */
  async existing(path: string): Promise<InsidePath> {
    const abs = this.lexical(path)
    let real: string
    try {
      real = await realpath(abs)
    } catch (error) {
      if (code(error) === 'ENOENT') throw new ToolRefusal(`not found: ${path}`)
      if (code(error) === 'ELOOP') throw new ToolRefusal(`refused: ${path} is a symlink loop`)
      throw error
    }
    this.mustContain(path, real)
    return { real, shown: this.show(real) }
  }

  /**
   * Where a write to `path` lands: an existing file (through a symlink that stays inside), or a new
   * file under the deepest existing directory on its way, which must itself be inside.
   */
  async writable(path: string): Promise<InsidePath & { exists: boolean }> {
    const abs = this.lexical(path)
    const stat = await lstat(abs).catch((error: unknown) => {
      if (code(error) === 'ENOENT') return undefined
      if (code(error) === 'ENOTDIR') throw new ToolRefusal(`refused: a part of ${path} is a file, not a directory`)
      throw error
    })
    if (stat?.isDirectory()) throw new ToolRefusal(`refused: ${path} is a directory`)
    if (stat) {
      const found = await this.existing(path).catch((error: unknown) => {
        if (error instanceof ToolRefusal && error.message.startsWith('not found'))
          throw new ToolRefusal(`refused: ${path} is a symlink that points nowhere`)
        throw error
      })
      return { ...found, exists: true }
    }
    // A new file: its deepest existing directory must be inside (symlinks on the way resolved).
    let dir = dirname(abs)
    const rest = [abs.slice(dir.length + 1)]
    for (;;) {
      try {
        const real = await realpath(dir)
        this.mustContain(path, real)
        const target = join(real, ...rest)
        return { real: target, shown: this.show(target), exists: false }
      } catch (error) {
        if (error instanceof ToolRefusal) throw error
        if (code(error) !== 'ENOENT') throw error
        if ((await lstat(dir).catch(() => undefined))?.isSymbolicLink())
          throw new ToolRefusal(`refused: ${path} goes through a symlink that points nowhere`)
        rest.unshift(dir.slice(dirname(dir).length + 1))
        dir = dirname(dir)
      }
    }
  }

  /** After opening: the kernel's path of the descriptor must still be inside (where /proc shows it). */
  async checkOpened(path: string, handle: FileHandle): Promise<void> {
    const held = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
    if (held !== undefined && held.startsWith('/')) this.mustContain(path, held.replace(/ \(deleted\)$/, ''))
  }

  mustContain(path: string, real: string): void {
    if (!isInside(this.real, real)) throw new ToolRefusal(`refused: ${path} leads outside the root through a symlink`)
  }
}
