import { createRequire } from 'node:module'

// The peers as plain Node loads them: required at first use, not at import (an app without them
// imports @nestor/dbos and is told what to install), synchronously (durable() registers before
// launch), the very DBOS the app imports (both are CommonJS). A bundler gets ./bundled.ts instead
// (the `#peers` import of package.json).
let require: NodeRequire | undefined
export const loadPeer = (name: '@dbos-inc/dbos-sdk' | 'pg'): unknown =>
  (require ??= createRequire(import.meta.url))(name)

/** DBOS's executor module, read for the URL DBOS launched with; undefined where it cannot be read. */
export function dbosExecutorModule(): unknown {
  require ??= createRequire(import.meta.url)
  return createRequire(require.resolve('@dbos-inc/dbos-sdk'))('./dbos-executor.js')
}
