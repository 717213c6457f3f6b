/**
 * DNS-rebinding protection, checked before anything else: a page in the user's browser that
 * rebinds its own name to 127.0.0.1 sends its name as `Host` (and its origin as `Origin`), so
 * only the names this server is reached by pass. A request without `Origin` is not from a
 * browser page and passes that check (the MCP transport spec asks to validate it when present).
 */
export type HostGuard = (req: { headers: GuardedHeaders }) => 'host' | 'origin' | undefined

/** The two headers the guard reads: a node request's `headers` has this shape (`@nestor/mcp`, `@nestor/studio`). */
export type GuardedHeaders = { host?: string | undefined; origin?: string | undefined }

/** The names a loopback server answers to by default, besides the host it is bound to. */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]']

export function hostGuard(
  boundHost: string,
  port: number,
  extra: { allowedHosts?: string[]; allowedOrigins?: string[] },
): HostGuard {
  const bound = boundHost.includes(':') ? `[${boundHost}]` : boundHost
  const names = [...new Set([bound, ...LOOPBACK].map((h) => h.toLowerCase()))]
  // A default name matches only with the served port: another local service's page must not pass.
  const hosts = new Set(names.map((h) => `${h}:${port}`))
  const anyPort = new Set<string>()
  for (const entry of extra.allowedHosts ?? []) {
    const value = entry.toLowerCase()
    if (hasPort(value)) hosts.add(value)
    else anyPort.add(value)
  }
  const origins = new Set([...names.map((h) => `http://${h}:${port}`), ...(extra.allowedOrigins ?? []).map(origin)])
  return (req) => {
    const host = req.headers.host?.toLowerCase()
    if (host === undefined || !(hosts.has(host) || anyPort.has(stripPort(host)))) return 'host'
    const from = req.headers.origin
    if (from !== undefined && !origins.has(origin(from))) return 'origin'
    return undefined
  }
}

const hasPort = (host: string): boolean => /:\d+$/.test(host)
const stripPort = (host: string): string => host.replace(/:\d+$/, '')
/** Origins compare without case or a trailing slash, as browsers serialise them. */
const origin = (value: string): string => value.toLowerCase().replace(/\/$/, '')
