import { readFile } from 'node:fs/promises'
import type { Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import { writeWhole } from './atomic-write.js'
import type { Root } from './confine.js'
import { lineChanges, unifiedDiff } from './diff.js'
import { looksBinary, readText, type ReadLimits } from './read-file.js'

export type WriteOptions = ReadLimits & { needsApproval: boolean }

type WriteArgs = { path: string; content: string }
type EditArgs = { path: string; old_string: string; new_string: string }

/** A planned change: where it lands, the text before (undefined: a new file) and after. */
type Change = { real: string; shown: string; before: string | undefined; after: string }

async function planWrite(root: Root, { path, content }: WriteArgs, limits: ReadLimits): Promise<Change> {
  const target = await root.writable(path)
  if (!target.exists) return { real: target.real, shown: target.shown, before: undefined, after: content }
  const bytes = await readFile(target.real)
  // A binary file's old bytes are not text a diff can show; the preview says it is replaced whole.
  const before =
    looksBinary(bytes) || bytes.length > limits.maxFileBytes
      ? `(${bytes.length} bytes of binary or oversized content)\n`
      : bytes.toString('utf8')
  return { real: target.real, shown: target.shown, before, after: content }
}

async function planEdit(root: Root, args: EditArgs, limits: ReadLimits): Promise<Change> {
  if (args.old_string === '')
    throw new ToolRefusal('old_string is empty: give the exact text to replace (write_file creates files)')
  if (args.old_string === args.new_string)
    throw new ToolRefusal('old_string and new_string are the same: nothing to change')
  const { bytes, shown, real } = await readText(root, args.path, limits)
  const text = bytes.toString('utf8')
  const first = text.indexOf(args.old_string)
  if (first === -1)
    throw new ToolRefusal(`old_string was not found in ${shown} (it must match exactly, whitespace included)`)
  const count = text.split(args.old_string).length - 1
  if (count > 1)
    throw new ToolRefusal(
      `old_string occurs ${count} times in ${shown}: include more of the surrounding text so it is unique`,
    )
  const after = text.slice(0, first) + args.new_string + text.slice(first + args.old_string.length)
  return { real, shown, before: text, after }
}

async function apply(root: Root, change: Change) {
  await writeWhole(root, change.shown, change.real, change.after)
  const { added, removed } = lineChanges(change.before, change.after)
  const created = change.before === undefined
  const bytes = Buffer.byteLength(change.after)
  const text = `${created ? 'created' : 'wrote'} ${change.shown}: ${bytes} bytes (+${added} -${removed} lines)`
  return withEffect(text, { kind: 'write', path: change.shown, created, bytes, added, removed })
}

const preview = (change: Change) => unifiedDiff(change.shown, change.before, change.after)

export function writeFileTool(root: () => Promise<Root>, options: WriteOptions): Tool {
  return builtinTool<WriteArgs>({
    name: 'write_file',
    description:
      'Create a file under the root, or replace its whole content. Parent directories are created. Prefer edit_file to change part of a file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the root' },
        content: { type: 'string', description: 'The complete new content' },
      },
      required: ['path', 'content'],
    },
    needsApproval: options.needsApproval,
    prepare: async (args) => preview(await planWrite(await root(), args, options)),
    execute: async (args) => apply(await root(), await planWrite(await root(), args, options)),
  })
}

export function editFileTool(root: () => Promise<Root>, options: WriteOptions): Tool {
  return builtinTool<EditArgs>({
    name: 'edit_file',
    description:
      'Replace one exact string in a text file under the root with another. old_string must occur exactly once (include surrounding lines to make it unique); whitespace counts.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path relative to the root' },
        old_string: { type: 'string', description: 'The exact text to replace; it must occur once' },
        new_string: { type: 'string', description: 'The text to put in its place' },
      },
      required: ['path', 'old_string', 'new_string'],
    },
    needsApproval: options.needsApproval,
    prepare: async (args) => preview(await planEdit(await root(), args, options)),
    execute: async (args) => apply(await root(), await planEdit(await root(), args, options)),
  })
}
