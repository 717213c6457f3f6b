import { isAbsolute, resolve } from 'node:path'

/**
 * A path an eval gave, as errors and warnings name it. Relative paths (`data`, `cassettes`,
 * `baseline`) resolve against the working directory, not the eval file: said wherever one is
 * not found, since that is the usual reason.
 */
export function pathNote(path: string): string {
  return isAbsolute(path)
    ? path
    : `${path} (${resolve(path)}: a relative path resolves against the working directory, not the eval file)`
}
