import { readdirSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { dirname, join, posix } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { packAll, repoRoot, sh } from './packed-app.js'

// Lints every packed tarball as published. The packages are ESM-only: attw runs with the
// `esm-only` profile, which ignores the CommonJS resolutions (require() of them works on Node
// >= 20.19 through require(esm); see docs/packaging.md).
let tarballs: string[] = []
beforeAll(async () => {
  tarballs = await packAll()
}, 300_000)
afterAll(async () => {
  if (tarballs[0]) await rm(dirname(tarballs[0]), { recursive: true, force: true })
}, 60_000)

const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name)

describe('every packed package', () => {
  it('has a tarball per directory of packages/', () => {
    expect(tarballs).toHaveLength(readdirSync(join(repoRoot, 'packages')).length)
  })

  it('holds its README, LICENSE and CHANGELOG, bundle/, dist/ and src/, and nothing else: no build info, no tests', async () => {
    for (const tarball of tarballs) {
      const { stdout } = await sh('tar', ['-tzf', tarball], repoRoot)
      const entries = stdout.split('\n').filter(Boolean)
      for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md', 'package.json', 'bundle/index.js', 'dist/index.d.ts'])
        expect(entries, tarball).toContain(`package/${file}`)
      expect(
        entries.filter(
          (entry) => !/^package\/((bundle|dist|src)\/|(README\.md|LICENSE|CHANGELOG\.md|package\.json)$)/.test(entry),
        ),
        tarball,
      ).toEqual([])
      expect(
        entries.filter((entry) => /tsbuildinfo|\.test\.[jt]s$/.test(entry)),
        tarball,
      ).toEqual([])
    }
  })

  it('ships its JavaScript bundled, each source map resolving to TypeScript the tarball holds', async () => {
    for (const tarball of tarballs) {
      const { stdout } = await sh('tar', ['-tzf', tarball], repoRoot)
      const entries = new Set(stdout.split('\n').filter(Boolean))
      const js = [...entries].filter((entry) => entry.endsWith('.js'))
      // tsc's one-file-per-module JavaScript is the bundler's input, not shipped; declarations are.
      // The exceptions: browser scripts served as they are (the studio's page, web's answer form).
      const page = tarball.includes('/nestor-studio-')
        ? 'package/src/page/'
        : tarball.includes('/nestor-web-')
          ? 'package/src/browser/'
          : undefined
      expect(
        js.filter((entry) => !entry.startsWith('package/bundle/') && !(page && entry.startsWith(page))),
        tarball,
      ).toEqual([])
      expect(
        [...entries].some((entry) => entry.startsWith('package/dist/') && entry.endsWith('.d.ts')),
        tarball,
      ).toBe(true)
      const mapped = new Set<string>()
      for (const file of js.filter((entry) => entry.startsWith('package/bundle/'))) {
        expect(entries, tarball).toContain(`${file}.map`)
        const { stdout: map } = await sh('tar', ['-xzOf', tarball, `${file}.map`], repoRoot)
        for (const source of (JSON.parse(map) as { sources: string[] }).sources) {
          const resolved = posix.join(posix.dirname(file), source)
          expect(resolved, `${tarball}: ${file}.map`).toMatch(/^package\/src\/.+\.ts$/)
          expect(entries, `${tarball}: ${file}.map`).toContain(resolved)
          mapped.add(resolved)
        }
      }
      expect(mapped.size, tarball).toBeGreaterThan(0)
    }
  }, 120_000)

  it('passes publint with no error or warning', async () => {
    for (const tarball of tarballs) {
      const { stdout } = await sh(bin('publint'), ['run', tarball, '--level', 'warning', '--strict'], repoRoot)
      expect(stdout, tarball).toContain('All good!')
    }
  }, 120_000)

  it('passes are-the-types-wrong for ESM under node16 and bundler resolution', async () => {
    for (const tarball of tarballs)
      await sh(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii'], repoRoot)
  }, 180_000)
})
