// An OAuthClientProvider (the MCP SDK's interface) that keeps everything in memory: enough for a
// CLI or a test. A real app stores tokens somewhere safe and opens the authorization URL in a browser.
import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'

export class MemoryOAuthProvider implements OAuthClientProvider {
  #tokens: OAuthTokens | undefined
  #client: OAuthClientInformationMixed | undefined
  #verifier = ''
  #discovery: OAuthDiscoveryState | undefined
  /** Where the user was sent to sign in (the app would open it in a browser). */
  authorizationUrl: URL | undefined

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'nestor example',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }
  }
  clientInformation() {
    return this.#client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.#client = info
  }
  tokens() {
    return this.#tokens
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier
  }
  codeVerifier() {
    return this.#verifier
  }
  // Kept so the auth() that exchanges the code finds the authorization server discovery found.
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.#discovery = state
  }
  discoveryState() {
    return this.#discovery
  }
}
