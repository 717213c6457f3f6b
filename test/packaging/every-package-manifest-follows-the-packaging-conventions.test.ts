import { existsSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { packageDirs, repoRoot, rootManifest } from './packed-app.js'

// The conventions of docs/packaging.md ("Conventions every package follows"), read from each
// directory of packages/ without packing: a package added there is held to them at once.
type Entry = { types: string; default: string; browser?: string; workerd?: string }
type Manifest = {
  name: string
  version: string
  description?: string
  license?: string
  repository?: { directory?: string }
  type?: string
  sideEffects?: boolean
  engines?: { node?: string }
  main?: string
  types?: string
  exports: Record<string, Entry | string>
  files?: string[]
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

const read = (path: string) => readFileSync(path, 'utf8')
const packages = packageDirs().map((dir) => ({
  dir: basename(dir),
  path: dir,
  manifest: JSON.parse(read(join(dir, 'package.json'))) as Manifest,
}))
const core = packages.find((p) => p.dir === 'core')!
const numberWords = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven']

describe.each(packages.map((p) => [p.manifest.name, p] as const))('%s', (_name, { dir, path, manifest }) => {
  it('is named after its directory, at the shared version, MIT with the same LICENSE, described, with its repository directory', () => {
    expect(manifest.name).toBe(`@nestor/${dir}`)
    expect(manifest.version).toBe(core.manifest.version)
    expect(manifest.license).toBe('MIT')
    expect(read(join(path, 'LICENSE'))).toBe(read(join(core.path, 'LICENSE')))
    expect(manifest.description).toMatch(/^[A-Z].*\.$/)
    expect(manifest.repository?.directory).toBe(`packages/${dir}`)
  })

  it('is ESM for Node 20+ with no side effects', () => {
    expect({ type: manifest.type, sideEffects: manifest.sideEffects, engines: manifest.engines }).toEqual({
      type: 'module',
      sideEffects: false,
      engines: { node: '>=20' },
    })
  })

  it('exports { types, default } entries (declarations in dist/, bundled JavaScript in bundle/), ./package.json, and main/types naming the root entry', () => {
    const { ['./package.json']: own, ...entries } = manifest.exports
    expect(own).toBe('./package.json')
    expect(Object.keys(entries)).toContain('.')
    for (const [subpath, entry] of Object.entries(entries)) {
      // A browser build (core's, providers' testing) adds `browser`, its twin under bundle/browser/, after `workerd`
      // (Workers keep the Node build).
      const keys = typeof entry === 'object' ? Object.keys(entry) : entry
      const { types, default: js, browser, workerd } = entry as Entry
      expect(keys, subpath).toEqual(browser ? ['types', 'workerd', 'browser', 'default'] : ['types', 'default'])
      expect(types, subpath).toMatch(/^\.\/dist\/.*\.d\.ts$/)
      expect(js, subpath).toBe(types.replace(/^\.\/dist\//, './bundle/').replace(/\.d\.ts$/, '.js'))
      if (browser)
        expect({ browser, workerd }, subpath).toEqual({
          browser: js.replace('./bundle/', './bundle/browser/'),
          workerd: js,
        })
    }
    const root = entries['.'] as Entry
    expect({ main: manifest.main, types: manifest.types }).toEqual({ main: root.default, types: root.types })
  })

  it('ships its bundles, its declarations, src and its three documents, and builds with its build info outside dist/', () => {
    expect(manifest.files).toEqual([
      'bundle',
      'dist/**/*.d.ts',
      'dist/**/*.d.ts.map',
      'src',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
    ])
    const tsconfig = JSON.parse(read(join(path, 'tsconfig.json'))) as {
      extends: string
      compilerOptions: Record<string, string>
    }
    expect(tsconfig.extends).toBe('../../tsconfig.base.json')
    expect(tsconfig.compilerOptions).toEqual({ rootDir: 'src', outDir: 'dist', tsBuildInfoFile: '.tsbuildinfo' })
  })

  it('depends on core alone (core pins its own exactly; providers its price data), takes SDKs and zod as peers tested at the root pins, and has no devDependencies', () => {
    if (dir === 'core')
      for (const [name, version] of Object.entries(manifest.dependencies ?? {}))
        expect(version, name).toMatch(/^\d+\.\d+\.\d+$/)
    // evals records and replays its cassettes with @nestor/providers/testing (no SDK), and its HTML
    // report inlines web's exec tree.
    else if (dir === 'evals')
      expect(manifest.dependencies).toEqual({
        '@nestor/core': 'workspace:*',
        '@nestor/providers': 'workspace:*',
        '@nestor/web': 'workspace:*',
      })
    // providers carries the model catalogue's price data (docs/cost.md), pinned exactly: data, not a peer.
    else if (dir === 'providers')
      expect(manifest.dependencies).toEqual({
        '@nestor/core': 'workspace:*',
        '@pydantic/genai-prices': expect.stringMatching(/^\d+\.\d+\.\d+$/),
      })
    // studio serves runs through web's streams, controls and approval gate.
    else if (dir === 'studio')
      expect(manifest.dependencies).toEqual({ '@nestor/core': 'workspace:*', '@nestor/web': 'workspace:*' })
    else expect(manifest.dependencies).toEqual({ '@nestor/core': 'workspace:*' })
    for (const peer of Object.keys(manifest.peerDependencies ?? {}))
      expect(rootManifest.devDependencies[peer], `${peer} pinned in the root package.json`).toMatch(/^\d+\.\d+\.\d+$/)
    expect(manifest.devDependencies).toBeUndefined()
    expect(rootManifest.devDependencies[manifest.name]).toBe('workspace:*')
  })

  it('has a README with its install line and a CHANGELOG', () => {
    expect(read(join(path, 'README.md'))).toMatch(
      new RegExp(`^# ${manifest.name}\\n[\\s\\S]*npm install [^\\n]*${manifest.name}`),
    )
    expect(existsSync(join(path, 'CHANGELOG.md'))).toBe(true)
    expect(read(join(path, 'CHANGELOG.md'))).toMatch(new RegExp(`^# ${manifest.name}\\n`))
  })
})

describe('the package lists of the docs', () => {
  const names = packages.map((p) => p.manifest.name)

  it("README.md's package table has a row per package", () => {
    const rows = [...read(join(repoRoot, 'README.md')).matchAll(/^\| `(@nestor\/[a-z-]+)` \|/gm)].map((m) => m[1])
    expect(rows.sort()).toEqual([...names].sort())
  })

  it('docs/packaging.md says how many packages there are and names each in its opening paragraph', () => {
    const opening = read(join(repoRoot, 'docs/packaging.md')).split('\n\n')[1]!
    expect(opening).toContain(`ships as ${numberWords[names.length]} ESM packages`)
    for (const name of names) expect(opening).toContain(`\`${name}\``)
  })
})
