import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'

type Recorded = { access_token?: unknown; refresh_token?: unknown; id_token?: unknown; client_secret?: unknown }

/**
 * The app's `authProvider` as the SDK gets it, seen on the way: every token and client secret it
 * hands out or is given is added to `secrets`, so errors can be scrubbed of them. Methods run on
 * the app's own object (class providers keep their private fields), and only the methods it has
 * are offered (the SDK branches on which optional ones exist).
 */
export function watchSecrets(provider: OAuthClientProvider, secrets: Set<string>): OAuthClientProvider {
  const record = (value: unknown) => {
    const r = value as Recorded | undefined
    for (const v of [r?.access_token, r?.refresh_token, r?.id_token, r?.client_secret])
      if (typeof v === 'string' && v.length > 3) secrets.add(v)
    return value
  }
  const watched = new Set<PropertyKey>(['tokens', 'saveTokens', 'clientInformation', 'saveClientInformation'])
  return new Proxy(provider, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target)
      if (typeof value !== 'function') return value
      const method = value as (...args: unknown[]) => unknown
      if (!watched.has(key)) return method.bind(target)
      return (...args: unknown[]) => {
        args.forEach(record)
        const out = method.apply(target, args)
        return out instanceof Promise ? out.then(record) : record(out)
      }
    },
  })
}
