import type * as DbosSdk from '@dbos-inc/dbos-sdk'
import { NestorError } from '@nestor/core'
import { peerModule } from '@nestor/core/provider-kit'
import type { Pool } from 'pg'

// The peers load at first use, not at import: an app without them imports @nestor/dbos and is
// told what to install, as the provider adapters tell of their SDKs. On Node they are required
// synchronously (durable() registers before launch), the very DBOS the app imports; a bundle
// follows the literal imports (peerModule, in @nestor/core).
const sdkModule = peerModule(
  '@dbos-inc/dbos-sdk',
  () => import('@dbos-inc/dbos-sdk'),
  () => import.meta.resolve('@dbos-inc/dbos-sdk'),
)
const pgModule = peerModule(
  'pg',
  () => import('pg').then((m) => (m.default ?? m) as typeof import('pg')),
  () => import.meta.resolve('pg'),
)

/** The DBOS SDK's `DBOS` and `ConfiguredInstance`. */
export function dbosSdk(): typeof DbosSdk {
  return peer(() => sdkModule.now())
}

/** The SDK's `DBOS`, loaded at first use. */
export const dbos = (): typeof DbosSdk.DBOS => dbosSdk().DBOS

/** node-postgres's `Pool`, for the pool on `DBOS_SYSTEM_DATABASE_URL`. */
export function pgPool(): typeof Pool {
  return peer(() => pgModule.now()).Pool
}

function peer<T>(load: () => T): T {
  try {
    return load()
  } catch (error) {
    if (!(error instanceof NestorError) || error.code !== 'no_runtime') throw error
    throw new NestorError(
      'invalid_options',
      `@nestor/dbos needs its peer dependencies, which are not installed: run \`npm install @dbos-inc/dbos-sdk pg\` (${error.message})`,
    )
  }
}
