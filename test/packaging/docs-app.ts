import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageDirs, rootManifest } from './packed-app.js'

/** The peers the docs' programs use besides zod and the openai SDK, at the workspace's versions. */
const docsPeers = [
  '@types/node',
  '@opentelemetry/api',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/context-async-hooks',
  '@modelcontextprotocol/sdk',
]

/**
 * What the docs app installs: every @nestor package (from its tarball), zod, the openai SDK and
 * the docs' other peers. No other provider SDK, so the root imports must type-check without them.
 */
export function appDependencies(tarballs: string[]): Record<string, string> {
  const deps: Record<string, string> = {
    zod: rootManifest.devDependencies.zod!,
    openai: rootManifest.devDependencies.openai!,
  }
  for (const name of docsPeers) deps[name] = rootManifest.devDependencies[name]!
  for (const dir of packageDirs()) {
    const { name, version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string
      version: string
    }
    const tarball = tarballs.find((t) => t.endsWith(`${name.replace('@', '').replace('/', '-')}-${version}.tgz`))
    deps[name] = tarball ? `file:${tarball}` : version
  }
  return deps
}
