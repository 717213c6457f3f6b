import type { Tool } from '@nestor/core'
import { NestorError } from '@nestor/core'
import { Root } from './confine.js'
import { listFilesTool } from './list-files.js'
import { readFileTool } from './read-file.js'
import { globTool, grepTool } from './search.js'
import { editFileTool, writeFileTool } from './write-tools.js'

export type FileToolsOptions = {
  /** The directory every path is confined to. */
  root: string
  /** write_file and edit_file wait for an approval, with a unified diff as the preview. Default true. */
  needsApproval?: boolean
  /** The most bytes one read_file returns (a longer file comes in parts). Default 256 KiB. */
  maxReadBytes?: number
  /** Files larger than this are not read, edited or searched. Default 16 MiB. */
  maxFileBytes?: number
  /** A grep still searching after this long is stopped (it runs in a worker thread). Default 30 s. */
  grepTimeoutMs?: number
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (!Number.isInteger(value) || value < 1)
    throw new NestorError(
      'invalid_options',
      `invalid option ${name}: expected a positive integer, got ${String(value)}`,
    )
  return value
}

/**
 * read_file, write_file, edit_file, list_files, glob and grep, confined to `root`: a path that
 * leaves it (`..`, an absolute path elsewhere, a symlink out) is refused with an error result.
 */
export function fileTools(options: FileToolsOptions): Tool[] {
  if (typeof options?.root !== 'string' || options.root === '')
    throw new NestorError('invalid_options', 'invalid option root: expected the path of a directory')
  const limits = {
    maxReadBytes: positive('maxReadBytes', options.maxReadBytes, 256 * 1024),
    maxFileBytes: positive('maxFileBytes', options.maxFileBytes, 16 * 1024 * 1024),
  }
  const needsApproval = options.needsApproval ?? true
  if (typeof needsApproval !== 'boolean')
    throw new NestorError(
      'invalid_options',
      `invalid option needsApproval: expected a boolean, got ${typeof needsApproval}`,
    )
  // Resolved on first use and kept once found: a root that does not exist yet fails each call readably.
  let found: Root | undefined
  const opened = async (): Promise<Root> => (found ??= await Root.open(options.root))
  return [
    readFileTool(opened, limits),
    writeFileTool(opened, { ...limits, needsApproval }),
    editFileTool(opened, { ...limits, needsApproval }),
    listFilesTool(opened),
    globTool(opened),
    grepTool(opened, { ...limits, grepTimeoutMs: positive('grepTimeoutMs', options.grepTimeoutMs, 30_000) }),
  ]
}
