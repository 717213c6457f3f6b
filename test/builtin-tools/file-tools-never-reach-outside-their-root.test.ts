import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fileTools } from '@nestor/tools'
import { scratchDir } from '../support/scratch-dir.js'
import { Root } from '../../packages/tools/src/files/confine.js'
import { call } from './call.js'

/** A root with a file inside and a secret beside it (and a sibling dir whose name extends the root's). */
function layout() {
  const base = scratchDir('nestor-confine-')
  const root = join(base, 'repo')
  mkdirSync(join(root, 'src'), { recursive: true })
  writeFileSync(join(root, 'src', 'a.txt'), 'inside\n')
  writeFileSync(join(base, 'secret.txt'), 'TOP SECRET\n')
  mkdirSync(join(base, 'repo2'))
  writeFileSync(join(base, 'repo2', 'x.txt'), 'sibling\n')
  mkdirSync(join(base, 'outdir'))
  writeFileSync(join(base, 'outdir', 'b.txt'), 'outside dir\n')
  return { base, root, tools: fileTools({ root }) }
}

describe('file tools are confined to their root', () => {
  it('refuse .., absolute paths elsewhere and a sibling whose name starts like the root, and read the secret nowhere', async () => {
    const { base, tools } = layout()
    for (const path of [
      '../secret.txt',
      'src/../../secret.txt',
      join(base, 'secret.txt'),
      '../repo2/x.txt',
      join(base, 'repo2/x.txt'),
      '/etc/passwd',
      '//etc/passwd',
      'src/\0a.txt',
    ]) {
      const out = await call(tools, 'read_file', { path })
      expect(out.isError, path).toBe(true)
      expect(out.text, path).toMatch(/refused/)
      expect(out.text).not.toContain('SECRET')
    }
    for (const [name, args] of [
      ['list_files', { path: '..' }],
      ['grep', { pattern: 'SECRET', path: '..' }],
      ['glob', { pattern: '*.txt', path: '../' }],
      ['write_file', { path: '../pwned.txt', content: 'x' }],
      ['edit_file', { path: '../secret.txt', old_string: 'TOP', new_string: 'NO' }],
    ] as const) {
      const out = await call(tools, name, args)
      expect(out, name).toMatchObject({ isError: true, text: expect.stringMatching(/refused/) })
    }
    expect(existsSync(join(base, 'pwned.txt'))).toBe(false)
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n')
  })

  it('normalise paths that stay inside: ./, //, a/../b, trailing slashes and absolute paths under the root', async () => {
    const { root, tools } = layout()
    for (const path of [
      'src/a.txt',
      './src/a.txt',
      'src//a.txt',
      'src/./a.txt',
      'x/../src/a.txt',
      join(root, 'src/a.txt'),
      `${root}//src/../src/a.txt`,
    ]) {
      expect(await call(tools, 'read_file', { path }), path).toMatchObject({ isError: false, text: 'inside\n' })
    }
    expect((await call(tools, 'list_files', { path: 'src/' })).text).toBe('a.txt  7 B')
    expect((await call(tools, 'list_files', { path: root })).text).toBe('src/')
  })

  it('refuse a symlink that leads out, as the file itself or as a directory on the way, for reads, writes and searches', async () => {
    const { base, root, tools } = layout()
    symlinkSync(join(base, 'secret.txt'), join(root, 'link-out.txt'))
    symlinkSync(join(base, 'outdir'), join(root, 'dir-out'))
    symlinkSync('../../secret.txt', join(root, 'src', 'relative-out.txt'))
    symlinkSync(join(root, 'src', 'a.txt'), join(root, 'link-in.txt'))
    for (const path of ['link-out.txt', 'dir-out/b.txt', 'src/relative-out.txt'])
      expect(await call(tools, 'read_file', { path }), path).toMatchObject({
        isError: true,
        text: expect.stringMatching(/refused: .* leads outside the root/),
      })
    // Writing through the directory link, or over the file link, would change files outside.
    for (const path of ['dir-out/new.txt', 'dir-out/b.txt', 'link-out.txt', 'dir-out/deeper/new.txt'])
      expect((await call(tools, 'write_file', { path, content: 'pwned' })).isError, path).toBe(true)
    expect(readdirSync(join(base, 'outdir'))).toEqual(['b.txt'])
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n')
    // A link that stays inside is followed.
    expect(await call(tools, 'read_file', { path: 'link-in.txt' })).toMatchObject({ isError: false, text: 'inside\n' })
    // Searches never walk through links; listings show where a link leads without following it.
    expect((await call(tools, 'grep', { pattern: 'SECRET|outside dir' })).text).toBe('no matches')
    expect((await call(tools, 'glob', { pattern: '**/*.txt' })).text).toBe('src/a.txt')
    expect((await call(tools, 'list_files', {})).text.split('\n')).toEqual([
      'dir-out -> (outside the root: refused)',
      'link-in.txt -> src/a.txt',
      'link-out.txt -> (outside the root: refused)',
      'src/',
    ])
  })

  it('refuse dangling links, links to links out and loops, and reach the root through a symlinked root path', async () => {
    const { base, root } = layout()
    symlinkSync(join(base, 'nowhere', 'file.txt'), join(root, 'dangling.txt'))
    symlinkSync(join(base, 'nowhere'), join(root, 'dangling-dir'))
    symlinkSync(join(root, 'link-b'), join(root, 'link-a'))
    symlinkSync(join(root, 'link-a'), join(root, 'link-b'))
    symlinkSync(join(base, 'secret.txt'), join(base, 'hop'))
    symlinkSync(join(base, 'hop'), join(root, 'two-hops.txt'))
    symlinkSync(root, join(base, 'root-link'))
    const tools = fileTools({ root: join(base, 'root-link') })
    expect((await call(tools, 'write_file', { path: 'dangling.txt', content: 'x' })).text).toMatch(
      /refused: .*points nowhere/,
    )
    expect((await call(tools, 'write_file', { path: 'dangling-dir/x.txt', content: 'x' })).text).toMatch(
      /refused: .*points nowhere/,
    )
    expect(existsSync(join(base, 'nowhere'))).toBe(false)
    expect((await call(tools, 'read_file', { path: 'link-a' })).text).toMatch(/refused: .*loop/)
    expect((await call(tools, 'read_file', { path: 'two-hops.txt' })).text).toMatch(/refused/)
    expect(await call(tools, 'read_file', { path: join(base, 'root-link', 'src', 'a.txt') })).toMatchObject({
      isError: false,
      text: 'inside\n',
    })
    expect(await call(tools, 'read_file', { path: join(root, 'src', 'a.txt') })).toMatchObject({
      isError: false,
      text: 'inside\n',
    })
  })
})

describe('the check after opening (Linux: the path the kernel holds for the descriptor)', () => {
  it('refuses a descriptor that turned out to be outside, as a directory swapped for a symlink after the realpath check would', async () => {
    const { base, root } = layout()
    const inside = await Root.open(root)
    const outside = await open(join(base, 'secret.txt'), 'r')
    const within = await open(join(root, 'src', 'a.txt'), 'r')
    try {
      await expect(inside.checkOpened('src/a.txt', outside)).rejects.toThrow(
        'refused: src/a.txt leads outside the root through a symlink',
      )
      await expect(inside.checkOpened('src/a.txt', within)).resolves.toBeUndefined()
    } finally {
      await outside.close()
      await within.close()
    }
  })
})
