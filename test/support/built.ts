import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))

/**
 * The built packages as an app imports them: tsc's dist/ (types, and the bundler's input) and the
 * bundle/ their exports point at. `pnpm test` builds first; run alone, a test builds what is
 * missing, and re-bundles a package whose dist/ is newer than its bundle (after a bare `tsc -b`).
 */
export function ensureBuilt(): void {
  const packages = readdirSync(join(root, 'packages')).map((name) => join(root, 'packages', name))
  if (packages.some((dir) => !existsSync(join(dir, 'dist'))) || !existsSync(join(root, 'examples/dist')))
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b'], {
      cwd: root,
      stdio: 'inherit',
      timeout: 240_000,
    })
  execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs'), '--if-stale'], {
    cwd: root,
    stdio: 'inherit',
    timeout: 60_000,
  })
}
