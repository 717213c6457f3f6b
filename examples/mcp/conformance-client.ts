// An mcpTools client for the official MCP conformance suite's client scenarios: the suite starts
// it with the server URL and names the scenario in MCP_CONFORMANCE_SCENARIO (credentials, when a
// scenario has them, in MCP_CONFORMANCE_CONTEXT). docs/mcp.md § Conformance.
// Run: npx conformance client --command "node examples/dist/mcp/conformance-client.js" --scenario <name>
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import { NestorError, Runtime } from '@nestor/core'
import { mcpTools, type McpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { MemoryOAuthProvider } from './memory-oauth-provider.js'

type Context = { client_id?: string; client_secret?: string; private_key_pem?: string; signing_algorithm?: string }

const serverUrl = new URL(process.argv[2]!)
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? ''
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as Context

/** Machine-to-machine scenarios carry credentials; the others sign a (headless) user in. */
function providerFor(): OAuthClientProvider | undefined {
  if (!scenario.startsWith('auth/')) return undefined
  const { client_id: clientId, client_secret: clientSecret, private_key_pem: key } = context
  if (clientId && key)
    return new PrivateKeyJwtProvider({ clientId, privateKey: key, algorithm: context.signing_algorithm ?? 'ES256' })
  if (clientId && clientSecret && scenario.includes('client-credentials'))
    return new ClientCredentialsProvider({ clientId, clientSecret })
  const provider = new MemoryOAuthProvider(
    'http://localhost:3000/callback',
    'https://conformance-test.local/client-metadata.json',
  )
  if (clientId)
    provider.saveClientInformation({ client_id: clientId, ...(clientSecret && { client_secret: clientSecret }) })
  return provider
}

/** A headless browser: follows the authorization URL to the redirect and reads the code off it. */
async function signIn(provider: MemoryOAuthProvider): Promise<void> {
  const back = await fetch(provider.authorizationUrl!, { redirect: 'manual' })
  const code = new URL(back.headers.get('location') ?? '', serverUrl).searchParams.get('code')
  if (!code) throw new Error(`no code in the redirect (${back.status})`)
  provider.authorizationUrl = undefined
  await auth(provider, { serverUrl, authorizationCode: code })
}

async function connect(authProvider: OAuthClientProvider | undefined): Promise<McpTools> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await mcpTools({ url: serverUrl }, authProvider ? { authProvider } : {})
    } catch (error) {
      const signInNeeded = authProvider instanceof MemoryOAuthProvider && authProvider.authorizationUrl
      if (!(error instanceof NestorError) || !signInNeeded || attempt === 3) throw error
      await signIn(authProvider)
    }
  }
}

const authProvider = providerFor()
const server = await connect(authProvider)
// The user accepts every question without typing anything: the client fills in the defaults.
const runtime = new Runtime({ provider: scripted([]), model: 'none', ask: () => ({}) })
const args: Record<string, Record<string, unknown>> = { add_numbers: { a: 5, b: 3 } }
try {
  for (const tool of server.tools) {
    const batch = await runtime.runBatch([{ tool: tool.spec.name, args: args[tool.spec.name] ?? {} }], {
      tools: server.tools,
    })
    const result = batch.results[0]!.result
    // A step-up scenario answers 403 insufficient_scope: sign in again (the provider has the new URL) and retry once.
    if (result.isError && authProvider instanceof MemoryOAuthProvider && authProvider.authorizationUrl) {
      await signIn(authProvider)
      await runtime.runBatch([{ tool: tool.spec.name, args: args[tool.spec.name] ?? {} }], { tools: server.tools })
    }
    console.log(`${tool.spec.name}: ${JSON.stringify(result.content)}`)
  }
} finally {
  await server.close()
}
