import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { ensureBuilt } from '../support/built.js'

const run = promisify(execFile)
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
export const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  packageManager: string
  devDependencies: Record<string, string>
}

export const tscBin = join(repoRoot, 'node_modules/typescript/bin/tsc')

/** Every directory of packages/ with a package.json: packages added later are covered too. */
export function packageDirs(): string[] {
  const base = join(repoRoot, 'packages')
  return readdirSync(base)
    .map((name) => join(base, name))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(join(dir, 'package.json')))
}

export async function sh(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(command, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 })
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error })
  }
}

/**
 * Packs every package with pnpm (workspace:* becomes a version). `pnpm test` builds first (tsc -b,
 * then the bundles); run alone, this builds only what is missing or stale. One recursive pack
 * rather than one per package: pnpm's start-up is most of a pack's cost.
 */
export async function packAll(): Promise<string[]> {
  ensureBuilt()
  const out = mkdtempSync(join(tmpdir(), 'nestor-tarballs-'))
  await sh(
    'npx',
    [
      '--yes',
      rootManifest.packageManager,
      '--recursive',
      '--filter',
      './packages/*',
      'pack',
      '--pack-destination',
      out,
    ],
    repoRoot,
  )
  return readdirSync(out)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => join(out, file))
}

type Manifest = {
  name: string
  peerDependencies?: Record<string, string>
  peerDependenciesMeta?: Record<string, { optional?: boolean }>
}
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest

/**
 * The required peers of every package, at the workspace's exact versions (the root package.json
 * pins what the lockfile resolves). npm would install them anyway, at whatever version its cache
 * offers: pinned, the app runs the versions the suite tested. Optional peers (the provider SDKs)
 * stay out.
 */
export function requiredPeers(): Record<string, string> {
  const peers: Record<string, string> = {}
  for (const manifest of packageDirs().map(manifestOf))
    for (const name of Object.keys(manifest.peerDependencies ?? {}))
      if (!manifest.peerDependenciesMeta?.[name]?.optional) peers[name] = rootManifest.devDependencies[name]!
  return peers
}

/** `/tmp/…/nestor-web-0.1.0.tgz` → `@nestor/web`. */
export const packageOfTarball = (tarball: string): string =>
  `@nestor/${tarball
    .split('/')
    .pop()!
    .replace(/^nestor-/, '')
    .replace(/-\d+\.\d+\.\d+.*\.tgz$/, '')}`

/**
 * A fresh npm app outside the workspace with every tarball, the given zod, the openai SDK and the
 * required peers (the workspace's exact versions) and the `extra` packages: the other SDKs stay
 * uninstalled.
 */
export async function installApp(
  tarballs: string[],
  zodVersion: string,
  extra: Record<string, string> = {},
): Promise<string> {
  const dependencies: Record<string, string> = {
    ...requiredPeers(),
    zod: zodVersion,
    openai: rootManifest.devDependencies.openai!,
    ...extra,
  }
  dependencies['@types/node'] = rootManifest.devDependencies['@types/node']!
  for (const tarball of tarballs) dependencies[packageOfTarball(tarball)] = `file:${tarball}`
  return npmApp(dependencies)
}

/**
 * A fresh npm app with exactly `dependencies` and no peer installed for them, as npm's
 * `--legacy-peer-deps` (and yarn) leave an app whose author did not add a peer.
 */
export async function installWithoutPeers(dependencies: Record<string, string>): Promise<string> {
  return npmApp(dependencies, ['--legacy-peer-deps'])
}

async function npmApp(dependencies: Record<string, string>, flags: string[] = []): Promise<string> {
  const app = mkdtempSync(join(tmpdir(), 'nestor-app-'))
  cpSync(fileURLToPath(new URL('./app', import.meta.url)), app, { recursive: true })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'nestor-packaging-app', private: true, type: 'module', dependencies }, null, 2),
  )
  await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...flags], app)
  return app
}

/** Every installed copy of a package, wherever npm put it. */
export function installedCopies(app: string, name: string): string[] {
  const found: string[] = []
  const visit = (modules: string): void => {
    if (!existsSync(modules)) return
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue
      const dirs = entry.startsWith('@')
        ? readdirSync(join(modules, entry)).map((sub) => join(modules, entry, sub))
        : [join(modules, entry)]
      for (const dir of dirs) {
        const manifest = join(dir, 'package.json')
        if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name)
          found.push(dir)
        visit(join(dir, 'node_modules'))
      }
    }
  }
  visit(join(app, 'node_modules'))
  return found
}
