import type * as DbosSdk from '@dbos-inc/dbos-sdk'
import { NestorError } from '@nestor/core'
import type { Pool } from 'pg'
import { loadPeer } from '#peers'

// The peers load at first use, not at import: an app without them imports @nestor/dbos and is
// told what to install, as the provider adapters tell of their SDKs. Both are CommonJS, so
// require() returns the very DBOS the app imports, synchronously (durable() registers before launch).

let sdk: typeof DbosSdk | undefined

/** The DBOS SDK's `DBOS` and `ConfiguredInstance`. */
export function dbosSdk(): typeof DbosSdk {
  sdk ??= peer<typeof DbosSdk>('@dbos-inc/dbos-sdk')
  return sdk
}

/** The SDK's `DBOS`, loaded at first use. */
export const dbos = (): typeof DbosSdk.DBOS => dbosSdk().DBOS

/** DBOS's answer for a workflow that does not exist (a read of its stream, a send to it), also as replayed. */
export function isMissingWorkflow(error: unknown): boolean {
  if (error instanceof dbosSdk().Error.DBOSNonExistentWorkflowError) return true
  return error instanceof Error && /non-?existent|does not exist/i.test(error.message)
}

/** node-postgres's `Pool`, for the pool on `DBOS_SYSTEM_DATABASE_URL`. */
export function pgPool(): typeof Pool {
  return peer<{ Pool: typeof Pool }>('pg').Pool
}

function peer<T>(name: '@dbos-inc/dbos-sdk' | 'pg'): T {
  try {
    return loadPeer(name) as T
  } catch (error) {
    const code = (error as { code?: unknown } | undefined)?.code
    if (code !== 'MODULE_NOT_FOUND' || !(error as Error).message.includes(`'${name}'`)) throw error
    throw new NestorError(
      'invalid_options',
      `@nestor/dbos needs the peer dependency "${name}", which is not installed: run \`npm install @dbos-inc/dbos-sdk pg\``,
    )
  }
}
