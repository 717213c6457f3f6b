import { open } from 'node:fs/promises'
import type { Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import type { Root } from './confine.js'

export type ReadLimits = { maxReadBytes: number; maxFileBytes: number }

/** Text files only: a NUL byte in the first 8000 bytes marks a binary file (as git decides). */
export const looksBinary = (bytes: Buffer): boolean => bytes.subarray(0, 8000).includes(0)

const countLines = (bytes: Buffer): number => {
  let n = 0
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) n++
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? n + 1 : n
}

/** A text file's bytes, after the open file is checked to be inside the root, regular, small enough and not binary. */
export async function readText(
  root: Root,
  path: string,
  limits: ReadLimits,
): Promise<{ bytes: Buffer; shown: string; real: string }> {
  const { real, shown } = await root.existing(path)
  const handle = await open(real, 'r')
  try {
    await root.checkOpened(path, handle)
    const stat = await handle.stat()
    if (stat.isDirectory()) throw new ToolRefusal(`${shown} is a directory (list_files lists it)`)
    if (!stat.isFile()) throw new ToolRefusal(`refused: ${shown} is not a regular file`)
    if (stat.size > limits.maxFileBytes)
      throw new ToolRefusal(`refused: ${shown} is ${stat.size} bytes, over the limit of ${limits.maxFileBytes}`)
    const bytes = await handle.readFile()
    if (looksBinary(bytes)) throw new ToolRefusal(`refused: ${shown} is a binary file (${bytes.length} bytes)`)
    return { bytes, shown, real }
  } finally {
    await handle.close()
  }
}

type ReadArgs = { path: string; offset?: number; limit?: number }

export function readFileTool(root: () => Promise<Root>, limits: ReadLimits): Tool {
  return builtinTool<ReadArgs>({
    name: 'read_file',
    description:
      'Read a text file under the root. Paths are relative to the root. offset is the first line (1-based), limit the number of lines; a long file comes back in parts, each saying how to read on.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the root' },
        offset: { type: 'integer', minimum: 1, description: 'First line to read (1-based)' },
        limit: { type: 'integer', minimum: 1, description: 'Number of lines to read' },
      },
      required: ['path'],
    },
    execute: async ({ path, offset = 1, limit }) => {
      const { bytes, shown } = await readText(await root(), path, limits)
      const totalLines = countLines(bytes)
      if (offset === 1 && limit === undefined && bytes.length <= limits.maxReadBytes) {
        const effect = { path: shown, bytes: bytes.length, firstLine: 1, lastLine: totalLines, totalLines }
        return withEffect(bytes.toString('utf8'), { kind: 'read', ...effect })
      }
      if (offset > Math.max(totalLines, 1))
        throw new ToolRefusal(`${shown} has ${totalLines} lines; offset ${offset} is past its end`)
      let start = 0
      for (let line = 1; line < offset; line++) start = bytes.indexOf(10, start) + 1
      let end = start
      let last = offset - 1
      while (end < bytes.length && (limit === undefined || last - offset + 1 < limit)) {
        const next = bytes.indexOf(10, end)
        const lineEnd = next === -1 ? bytes.length : next + 1
        if (lineEnd - start > limits.maxReadBytes && last >= offset) break
        end = lineEnd
        last++
      }
      const slice = bytes.subarray(start, Math.min(end, start + limits.maxReadBytes))
      const more = last < totalLines ? `; read on with offset ${last + 1}` : ''
      const text = `${slice.toString('utf8')}${slice.at(-1) === 10 ? '' : '\n'}[lines ${offset}-${last} of ${totalLines}${more}]`
      const effect = { path: shown, bytes: slice.length, firstLine: offset, lastLine: last, totalLines }
      return withEffect(text, { kind: 'read', ...effect })
    },
  })
}
