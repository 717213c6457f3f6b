import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileTools } from '@nestor/tools'
import { scratchDir } from '../support/scratch-dir.js'
import { call, preview } from './call.js'

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

/** Applies a preview with GNU patch to a copy of the old text: the diff must say exactly what the write does. */
function applyPatch(before: string | undefined, diff: string): string {
  const dir = scratchDir('nestor-patch-')
  const file = join(dir, 'f')
  writeFileSync(file, before ?? '')
  writeFileSync(join(dir, 'p.diff'), diff)
  execFileSync('patch', ['-s', file, join(dir, 'p.diff')], { cwd: dir })
  return readFileSync(file, 'utf8')
}

describe('read_file', () => {
  it('reads line ranges, says how to read on, and cuts a long file to maxReadBytes', async () => {
    const root = scratchDir('nestor-read-')
    writeFileSync(join(root, 'n.txt'), numbered(1000))
    const tools = fileTools({ root, maxReadBytes: 100 })
    const range = await call(tools, 'read_file', { path: 'n.txt', offset: 10, limit: 3 })
    expect(range.text).toBe('line 10\nline 11\nline 12\n[lines 10-12 of 1000; read on with offset 13]')
    expect(range.effect).toMatchObject({ kind: 'read', path: 'n.txt', firstLine: 10, lastLine: 12, totalLines: 1000 })
    const capped = await call(tools, 'read_file', { path: 'n.txt' })
    expect(capped.text).toBe(`${numbered(13)}[lines 1-13 of 1000; read on with offset 14]`)
    expect((await call(tools, 'read_file', { path: 'n.txt', offset: 999 })).text).toBe(
      'line 999\nline 1000\n[lines 999-1000 of 1000]',
    )
    expect((await call(tools, 'read_file', { path: 'n.txt', offset: 2000 })).text).toMatch(
      /has 1000 lines; offset 2000 is past its end/,
    )
    expect((await call(tools, 'read_file', { path: 'n.txt', offset: 0 })).isError).toBe(true)
  })

  it('refuses binary files, files over maxFileBytes and directories with a readable error; reads a file without a final newline whole', async () => {
    const root = scratchDir('nestor-read-')
    writeFileSync(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]))
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(2048))
    writeFileSync(join(root, 'tail.txt'), 'a\nb')
    mkdirSync(join(root, 'dir'))
    const tools = fileTools({ root, maxFileBytes: 1024 })
    expect(await call(tools, 'read_file', { path: 'image.png' })).toMatchObject({
      isError: true,
      text: 'refused: image.png is a binary file (8 bytes)',
    })
    expect(await call(tools, 'read_file', { path: 'big.txt' })).toMatchObject({
      isError: true,
      text: 'refused: big.txt is 2048 bytes, over the limit of 1024',
    })
    expect(await call(tools, 'read_file', { path: 'dir' })).toMatchObject({
      isError: true,
      text: 'dir is a directory (list_files lists it)',
    })
    expect(await call(tools, 'read_file', { path: 'missing.txt' })).toMatchObject({
      isError: true,
      text: 'not found: missing.txt',
    })
    expect(await call(tools, 'read_file', { path: 'tail.txt' })).toMatchObject({
      isError: false,
      text: 'a\nb',
      effect: { totalLines: 2 },
    })
    expect((await call(tools, 'grep', { pattern: 'PNG|x' })).text).toBe('no matches')
  })

  it('reads a 10 MB file whole when the cap allows it', async () => {
    const root = scratchDir('nestor-read-')
    const content = `${'0123456789abcdef'.repeat(63)}\n`.repeat(10_000)
    writeFileSync(join(root, 'large.txt'), content)
    const out = await call(fileTools({ root, maxReadBytes: 16 * 1024 * 1024 }), 'read_file', { path: 'large.txt' })
    expect(out.text.length).toBe(content.length)
    expect(out.text === content).toBe(true)
    expect(out.effect).toMatchObject({ bytes: content.length, totalLines: 10_000 })
  })
})

describe('write_file and edit_file', () => {
  it('preview a unified diff that patch applies to give exactly what the call then writes', async () => {
    const root = scratchDir('nestor-write-')
    const before = numbered(40)
    writeFileSync(join(root, 'f.txt'), before)
    const tools = fileTools({ root })
    const edit = { path: 'f.txt', old_string: 'line 20\nline 21\n', new_string: 'line twenty\n' }
    const diff = (await preview(tools, 'edit_file', edit)) as string
    expect(diff).toBe(
      '--- a/f.txt\n+++ b/f.txt\n@@ -17,8 +17,7 @@\n line 17\n line 18\n line 19\n-line 20\n-line 21\n+line twenty\n line 22\n line 23\n line 24\n',
    )
    expect(await call(tools, 'edit_file', edit)).toMatchObject({
      isError: false,
      text: 'wrote f.txt: 307 bytes (+1 -2 lines)',
    })
    const after = readFileSync(join(root, 'f.txt'), 'utf8')
    expect(applyPatch(before, diff)).toBe(after)

    const rewrite = { path: 'f.txt', content: after.replace('line 3\n', 'three\n').replace('line 35\n', '') + 'end' }
    const rewriteDiff = (await preview(tools, 'write_file', rewrite)) as string
    await call(tools, 'write_file', rewrite)
    expect(applyPatch(after, rewriteDiff)).toBe(rewrite.content)
    expect(rewriteDiff).toContain('\\ No newline at end of file')

    const create = { path: 'new/deep/g.txt', content: 'hello\nworld\n' }
    expect(await preview(tools, 'write_file', create)).toBe(
      '--- /dev/null\n+++ b/new/deep/g.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n',
    )
    expect(await call(tools, 'write_file', create)).toMatchObject({
      text: 'created new/deep/g.txt: 12 bytes (+2 -0 lines)',
      effect: { kind: 'write', path: 'new/deep/g.txt', created: true, added: 2, removed: 0 },
    })
  })

  it('need approval by default (and not when told so); the others never do', () => {
    const names = (tools: ReturnType<typeof fileTools>) =>
      tools.filter((t) => t.needsApproval === true).map((t) => t.spec.name)
    expect(names(fileTools({ root: '.' }))).toEqual(['write_file', 'edit_file'])
    expect(names(fileTools({ root: '.', needsApproval: false }))).toEqual([])
  })

  it('leave the file untouched when an edit cannot apply, and leave no temporary file behind after any write', async () => {
    const root = scratchDir('nestor-write-')
    const text = 'a = 1\nb = 1\nc = 2\n'
    writeFileSync(join(root, 'f.txt'), text)
    chmodSync(join(root, 'f.txt'), 0o640)
    writeFileSync(join(root, 'blob.bin'), Buffer.from([1, 0, 2]))
    mkdirSync(join(root, 'dir'))
    const tools = fileTools({ root })
    const refusals = [
      [
        { path: 'f.txt', old_string: ' = 1', new_string: ' = 3' },
        'old_string occurs 2 times in f.txt: include more of the surrounding text so it is unique',
      ],
      [
        { path: 'f.txt', old_string: 'd = 4', new_string: 'x' },
        'old_string was not found in f.txt (it must match exactly, whitespace included)',
      ],
      [
        { path: 'f.txt', old_string: 'A = 1', new_string: 'x' },
        'old_string was not found in f.txt (it must match exactly, whitespace included)',
      ],
      [{ path: 'f.txt', old_string: '', new_string: 'x' }, expect.stringMatching(/old_string is empty/)],
      [{ path: 'blob.bin', old_string: '\u0001', new_string: 'x' }, 'refused: blob.bin is a binary file (3 bytes)'],
    ] as const
    for (const [args, message] of refusals)
      expect(await call(tools, 'edit_file', args)).toMatchObject({ isError: true, text: message })
    expect(await call(tools, 'write_file', { path: 'dir', content: 'x' })).toMatchObject({
      isError: true,
      text: 'refused: dir is a directory',
    })
    expect(await call(tools, 'write_file', { path: 'f.txt/child', content: 'x' })).toMatchObject({
      isError: true,
      text: expect.stringMatching(/is a file, not a directory/),
    })
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(text)
    expect(await call(tools, 'edit_file', { path: 'f.txt', old_string: 'c = 2', new_string: 'c = 3' })).toMatchObject({
      isError: false,
    })
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('a = 1\nb = 1\nc = 3\n')
    expect(statSync(join(root, 'f.txt')).mode & 0o777).toBe(0o640)
    expect(readdirSync(root).sort()).toEqual(['blob.bin', 'dir', 'f.txt'])
  })

  it('replace a file atomically: a reader holding the old file sees the old bytes whole, a new open sees the new ones whole', async () => {
    const root = scratchDir('nestor-write-')
    const old = 'old\n'.repeat(100_000)
    writeFileSync(join(root, 'f.txt'), old)
    const { openSync, readSync, closeSync } = await import('node:fs')
    const held = openSync(join(root, 'f.txt'), 'r')
    await call(fileTools({ root }), 'write_file', { path: 'f.txt', content: 'new\n'.repeat(50_000) })
    const buffer = Buffer.alloc(old.length + 10)
    const n = readSync(held, buffer, 0, buffer.length, 0)
    closeSync(held)
    expect(buffer.subarray(0, n).toString()).toBe(old)
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('new\n'.repeat(50_000))
  })
})
