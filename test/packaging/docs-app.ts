import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageDirs, requiredPeers, rootManifest } from './packed-app.js'

/**
 * What the docs' app installs besides the tarballs, zod, the openai SDK and the required peers
 * (at the workspace's versions): no other provider SDK, so the root imports must type-check
 * without them.
 */
export function docsAppPeers(): Record<string, string> {
  const names = ['@opentelemetry/sdk-trace-base', '@opentelemetry/context-async-hooks', '@libsql/client']
  return Object.fromEntries(names.map((name) => [name, rootManifest.devDependencies[name]!]))
}

/** The packages a runnable block may import: every @nestor package, zod, openai and the peers installed. */
export function docsAppPackages(): Set<string> {
  const nestor = packageDirs().map(
    (dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name,
  )
  return new Set([
    ...nestor,
    'zod',
    'openai',
    '@types/node',
    ...Object.keys(requiredPeers()),
    ...Object.keys(docsAppPeers()),
  ])
}
