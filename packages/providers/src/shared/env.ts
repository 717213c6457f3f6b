/**
 * An environment variable where there is an environment: a browser page or a Worker without
 * `nodejs_compat` has no `process`, and there a missing key must be the typed missing-key error,
 * not a ReferenceError thrown while the provider is built.
 */
export function envVar(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.[name]
}
