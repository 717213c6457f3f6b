// Bundles each package's compiled dist/ (tsc's output, one file per module) into bundle/: one file
// per entry point plus shared chunks. On Node a cold import pays mostly per file (resolve, read,
// compile, link), so core's ~50 modules load in a fraction of the time as a few files. Shared
// chunks keep one copy of each module per package: core's entry points share one NestorError.
// Types stay tsc's (dist/*.d.ts); source maps chain through dist/*.js.map to src/*.ts.
// Exports with a `browser` condition get a second build into bundle/browser/, where each module
// `…/node.js` that has a sibling `…/web.js` is replaced by it (core's platform/ and files/, providers' replay/files/): a
// page's bundle holds no node: import, and Node keeps its few files (one per entry and chunk).
//
//   node scripts/bundle.mjs              bundles every package
//   node scripts/bundle.mjs --if-stale   only the packages whose dist/ is newer than their bundle/
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const packagesDir = join(root, 'packages')
// Written into dist/ (never packed) when a bundle is done: a dist/ file newer than it means stale.
const STAMP = '.bundled'

/** The dist/ files the package's exports and bins point at (through bundle/), e.g. `index.js`, `bedrock/index.js`. */
function entryPoints(manifest) {
  const targets = [
    manifest.main,
    ...Object.values(manifest.bin ?? {}),
    ...Object.values(manifest.exports ?? {}).map((e) => e?.default),
    // Each variant of a package import (`#peers`: one for Node, one for bundlers) is a file of its own.
    ...Object.values(manifest.imports ?? {}).flatMap((e) => Object.values(e)),
  ]
  const entries = new Set()
  for (const target of targets) {
    if (typeof target !== 'string' || !target.startsWith('./bundle/')) continue
    entries.add(target.slice('./bundle/'.length))
  }
  return [...entries]
}

/** The dist/ files the exports' `browser` conditions point at (through bundle/browser/). */
function browserEntryPoints(manifest) {
  const targets = Object.values(manifest.exports ?? {}).map((e) => e?.browser)
  return [
    ...new Set(
      targets.filter((t) => typeof t === 'string' && t.startsWith('./bundle/browser/')).map((t) => t.slice(17)),
    ),
  ]
}

// In the browser build a module `x/node.js` whose folder also holds `x/web.js` resolves to the latter.
const webVariants = {
  name: 'web-variants',
  setup(build) {
    build.onResolve({ filter: /\/node\.js$/ }, ({ path, resolveDir }) => {
      const web = join(resolveDir, path.replace(/node\.js$/, 'web.js'))
      return existsSync(web) ? { path: web } : undefined
    })
  },
}

function newestMtime(dir) {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path))
    else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(path).mtimeMs)
  }
  return newest
}

const isStale = (dir) => {
  const stamp = join(dir, 'dist', STAMP)
  return !existsSync(stamp) || statSync(stamp).mtimeMs < newestMtime(join(dir, 'dist'))
}

async function bundlePackage(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const entries = entryPoints(manifest)
  if (entries.length === 0) throw new Error(`${manifest.name}: no export points into ./bundle/`)
  const dist = join(dir, 'dist')
  const out = join(dir, 'bundle')
  // Built beside bundle/ and swapped in, so a process importing the package meanwhile sees a
  // whole bundle (the same depth keeps the maps' and chunks' relative paths).
  const next = join(dir, `bundle.next-${process.pid}`)
  rmSync(next, { recursive: true, force: true })
  await build({
    entryPoints: entries.map((entry) => join(dist, entry)),
    outbase: dist,
    outdir: next,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies, peers (the SDKs, zod) and the other @nestor packages stay imports.
    packages: 'external',
    // The app's resolver picks the variant under its conditions (core's `#peers`).
    external: Object.keys(manifest.imports ?? {}),
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  })
  const browserEntries = browserEntryPoints(manifest)
  if (browserEntries.length)
    await build({
      entryPoints: browserEntries.map((entry) => join(dist, entry)),
      outbase: dist,
      outdir: join(next, 'browser'),
      chunkNames: 'chunks/[name]-[hash]',
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      packages: 'external',
      external: Object.keys(manifest.imports ?? {}),
      plugins: [webVariants],
      sourcemap: true,
      sourcesContent: false,
      logLevel: 'warning',
    })
  const ours = declaredNames(dist, 'class')
  const renamed = [...declaredNames(next, 'class')].filter((name) => !ours.has(name) && !isInnerClassName(name, ours))
  if (renamed.length) {
    rmSync(next, { recursive: true, force: true })
    throw new Error(`${manifest.name}: the bundle renamed the class ${renamed.join(', ')} (a clash of names)`)
  }
  rmSync(out, { recursive: true, force: true })
  renameSync(next, out)
  writeFileSync(join(dist, STAMP), '')
  return `${manifest.name}: ${entries.length} entries → ${countJs(out)} files`
}

// Classes keep their names (no keepNames: it wraps every closure in a call), so a class name the
// bundle declares that tsc's output does not (`Foo2`) is esbuild resolving a clash: a class's name
// shows in inspect() and error output. A module-private function may be renamed (`finish2` in a
// stack trace; the source map names the original).
function declaredNames(dir, keyword) {
  const names = new Set()
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue
    const text = readFileSync(join(entry.parentPath, entry.name), 'utf8')
    for (const m of text.matchAll(new RegExp(`\\b${keyword}\\s+([A-Za-z_$][\\w$]*)`, 'g')))
      if (m[1] !== 'extends') names.add(m[1])
  }
  return names
}

// esbuild writes a class whose body names itself as `var X = class _X`: the same class, whose
// `.name` reads `_X` (core's OptionRule is the one such class today).
const isInnerClassName = (name, ours) => name.startsWith('_') && ours.has(name.slice(1))

function countJs(dir) {
  let n = 0
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    n += entry.isDirectory() ? countJs(join(dir, entry.name)) : entry.name.endsWith('.js') ? 1 : 0
  return n
}

const ifStale = process.argv.includes('--if-stale')
const dirs = readdirSync(packagesDir)
  .map((name) => join(packagesDir, name))
  .filter((dir) => existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'dist')))
  .filter((dir) => !ifStale || isStale(dir))
for (const line of await Promise.all(dirs.map(bundlePackage))) process.stderr.write(`bundled ${line}\n`)
if (dirs.length === 0 && !ifStale) process.stderr.write(`no package has a dist/ under ${relative(root, packagesDir)}\n`)
