// A local OAuth 2.1 authorization server for MCP clients, on the MCP SDK's server-side auth helpers
// (mcpAuthRouter: metadata, dynamic registration, authorize with PKCE, token, refresh), with a
// client_credentials grant in front of the SDK's token handler (which does not offer one).
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js'
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js'
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js'
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js'
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js'
import express, { type Response } from 'express'

/** The server's state, for tests to inspect: every token it issued, the grants it answered. */
export class LocalAuthorizationServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>()
  readonly issued: string[] = []
  readonly grants: string[] = []
  readonly #codes = new Map<string, { clientId: string; challenge: string }>()
  readonly #access = new Map<string, AuthInfo>()
  readonly #refresh = new Map<string, string>()

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        const full = {
          ...client,
          client_id: `client-${randomUUID()}`,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        }
        this.clients.set(full.client_id, full)
        return full
      },
    }
  }

  /** No login page: the user "consents" at once, as a test user would. */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = `code-${randomUUID()}`
    this.#codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge })
    const back = new URL(params.redirectUri)
    back.searchParams.set('code', code)
    if (params.state) back.searchParams.set('state', params.state)
    res.redirect(302, back.href)
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.#codes.get(code)
    if (!entry) throw new InvalidGrantError('unknown authorization code')
    return entry.challenge
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.#codes.get(code)
    if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code')
    this.#codes.delete(code)
    this.grants.push('authorization_code')
    return this.issue(client.client_id, true)
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    // Echoes what it got, as careless servers do: the client must keep it out of its errors.
    if (this.#refresh.get(refreshToken) !== client.client_id)
      throw new InvalidGrantError(`unknown refresh token ${refreshToken}`)
    this.#refresh.delete(refreshToken)
    this.grants.push('refresh_token')
    return this.issue(client.client_id, true)
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.#access.get(token)
    if (!info) throw new InvalidTokenError('unknown or expired access token')
    return info
  }

  /** Every access token stops working (as at expiry); refresh tokens still do unless `refresh` too. */
  expire({ refresh = false } = {}): void {
    this.#access.clear()
    if (refresh) this.#refresh.clear()
  }

  /** A client registered out of band, with a secret, for client_credentials. */
  preRegister(clientId: string, clientSecret: string): void {
    this.clients.set(clientId, {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [],
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_basic',
    })
  }

  clientCredentials(clientId: string, clientSecret: string): OAuthTokens | undefined {
    const client = this.clients.get(clientId)
    if (!client || client.client_secret !== clientSecret) return undefined
    this.grants.push('client_credentials')
    return this.issue(clientId, false)
  }

  issue(clientId: string, withRefresh: boolean): OAuthTokens {
    const access = `at-${randomUUID()}`
    this.#access.set(access, { token: access, clientId, scopes: ['tools'] })
    this.issued.push(access)
    if (!withRefresh) return { access_token: access, token_type: 'Bearer', expires_in: 3600 }
    const refresh = `rt-${randomUUID()}`
    this.#refresh.set(refresh, clientId)
    this.issued.push(refresh)
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh }
  }
}

export type RunningAuthServer = {
  provider: LocalAuthorizationServer
  issuer: URL
  /** The `WWW-Authenticate` of a resource served at `path` (its metadata lives here, on the issuer). */
  wwwAuthenticate(path: string): string
  /** Starts serving the authorization server and the metadata of the protected resource at `resource`. */
  protect(resource: URL): void
  close(): Promise<void>
}

/** Listens on 127.0.0.1; `protect` mounts the SDK's router once the resource's URL is known. */
export async function startAuthServer(): Promise<RunningAuthServer> {
  const provider = new LocalAuthorizationServer()
  const app = express()
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  const issuer = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  app.post('/token', express.urlencoded({ extended: false }), (req, res, next) => {
    const body = req.body as Record<string, string | undefined>
    if (body.grant_type !== 'client_credentials') return next()
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    const [id, secret] = basic
      ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
      : [body.client_id, body.client_secret]
    const tokens = id && secret ? provider.clientCredentials(id, secret) : undefined
    if (!tokens) return void res.status(401).json({ error: 'invalid_client' })
    res.json(tokens)
  })
  const off = { rateLimit: false as const }
  return {
    provider,
    issuer,
    wwwAuthenticate: (path) =>
      `Bearer resource_metadata="${new URL(`.well-known/oauth-protected-resource${path}`, issuer).href}"`,
    protect: (resource) => {
      app.use(
        mcpAuthRouter({
          provider,
          issuerUrl: issuer,
          resourceServerUrl: resource,
          scopesSupported: ['tools'],
          authorizationOptions: off,
          tokenOptions: off,
          clientRegistrationOptions: off,
          revocationOptions: off,
        }),
      )
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
