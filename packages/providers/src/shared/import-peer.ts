import { NestorError } from '@nestor/core'

/**
 * Loads an optional peer dependency (a provider SDK) the first time an adapter needs it, so that
 * importing `@nestor/providers` costs nothing for SDKs an app does not use and works without them
 * installed. A missing package becomes an `invalid_options` error that names what to install.
 * `load` must be a literal `() => import('pkg')` so bundlers still see the dependency.
 */
export async function importPeer<T>(load: () => Promise<T>, packageName: string, adapter: string): Promise<T> {
  try {
    return await load()
  } catch (error) {
    if (!isMissing(error, packageName)) throw error
    throw new NestorError(
      'invalid_options',
      `${adapter} needs the optional peer dependency "${packageName}", which is not installed: run \`npm install ${packageName}\``,
      { provider: adapter, retryable: false },
    )
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | undefined)?.code
  const message = error instanceof Error ? error.message : ''
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && message.includes(packageName)
}
