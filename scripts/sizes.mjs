// The minified and gzipped size of every entry point of every package, as an app's bundle ships it:
// the entry with everything it imports (zod and the other dependencies, the other @nestor
// packages), bundled by esbuild for Node and minified; the peers but zod (provider SDKs, DBOS, pg,
// OpenTelemetry, the MCP SDK) stay out, as the app chooses them. The entries a web page can import
// are measured bundled for the browser too (`@nestor/core (browser)`). test/runtimes checks each
// size against scripts/size-budgets.json.
//
//   node scripts/sizes.mjs     prints the table (KiB), with the AI SDK's `ai` measured the same way
//   node scripts/sizes.mjs --from <dir> <specifier>…   other packages as installed in <dir>
//                              (`@mastra/core`…), measured the same way, for docs/packaging.md
import { readFileSync, readdirSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))

/** `@nestor/core`, `@nestor/providers/openai`, …: every export of every package but package.json. */
export function entryPoints() {
  const entries = []
  for (const dir of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    for (const key of Object.keys(manifest.exports ?? {}))
      if (key !== './package.json') entries.push(key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`)
  }
  return entries
}

/** What a page can bundle (docs/packaging.md, "Bundling and runtimes"), measured with the browser's conditions. */
export const browserEntryPoints = () =>
  [
    '@nestor/core',
    '@nestor/agents',
    '@nestor/providers/openai',
    '@nestor/providers/openai-compatible',
    '@nestor/providers/testing',
  ].map((entry) => `${entry} (browser)`)

/** The peers of every package but zod: what an app adds for the adapters and tools it uses. */
function appPeers() {
  const peers = new Set()
  for (const dir of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', dir, 'package.json')
    if (!existsSync(file)) continue
    const manifest = JSON.parse(readFileSync(file, 'utf8'))
    for (const name of Object.keys(manifest.peerDependencies ?? {}))
      if (name !== 'zod' && !name.startsWith('@nestor/')) peers.add(name)
  }
  return [...peers].flatMap((name) => [name, `${name}/*`])
}

/** Bytes of `entry`'s bundle, minified and gzipped (level 9); `… (browser)` bundled for a page. */
export async function gzippedSize(entry, external = appPeers(), from = root) {
  const browser = entry.endsWith(' (browser)')
  const specifier = browser ? entry.slice(0, -' (browser)'.length) : entry
  const result = await build({
    stdin: { contents: `export * from '${specifier}'`, resolveDir: from, loader: 'js' },
    bundle: true,
    minify: true,
    platform: browser ? 'browser' : 'node',
    format: 'esm',
    target: browser ? 'es2022' : 'node20',
    external,
    write: false,
    logLevel: 'silent',
  })
  return gzipSync(Buffer.concat(result.outputFiles.map((f) => f.contents)), { level: 9 }).length
}

export const budgets = () => JSON.parse(readFileSync(join(root, 'scripts/size-budgets.json'), 'utf8'))

const kib = (bytes) => (bytes / 1024).toFixed(1)
const [flag, from, ...others] = process.argv.slice(2)

if (process.argv[1] === fileURLToPath(import.meta.url) && flag === '--from') {
  // Everything bundled, peers included (as `ai` below): what an app of theirs ships.
  console.log('| entry point | min+gzip KiB |\n|---|---:|')
  for (const entry of others) console.log(`| ${entry} | ${kib(await gzippedSize(entry, [], from))} |`)
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const limits = budgets()
  console.log('| entry point | min+gzip KiB | budget KiB |\n|---|---:|---:|')
  for (const entry of [...entryPoints(), ...browserEntryPoints()])
    console.log(`| ${entry} | ${kib(await gzippedSize(entry))} | ${limits[entry] ?? '—'} |`)
  console.log(`| ai (the AI SDK, for comparison) | ${kib(await gzippedSize('ai', []))} | |`)
}
