import { NestorError } from '@nestor/core'
import { messageOf } from '@nestor/core/integration-kit'

/**
 * An adapter's SDK client, built on first use, so a missing key is the first call's
 * `invalid_options` error event (raised before any request), not a throw at the factory. The SDK is
 * loaded even for an injected client: classifying its errors needs its classes.
 */
export function lazySdkClient<Sdk, Client>(setup: {
  provider: string
  load: () => Promise<Sdk>
  injected: Client | undefined
  apiKey: string | undefined
  missingKey: () => NestorError
  /** A server that needs no key (one of your own at a `baseURL`): the client is made without one. */
  keyless?: boolean
  /** `apiKey` is '' for a keyless client. */
  create: (sdk: Sdk, apiKey: string) => Client
}): () => Promise<Client> {
  let client = setup.injected
  return async () => {
    const sdk = await setup.load()
    if (client) return client
    if (!setup.apiKey && !setup.keyless) throw setup.missingKey()
    try {
      client = setup.create(sdk, setup.apiKey ?? '')
    } catch (error) {
      // The SDK refusing to start (the OpenAI SDK in a browser page given a key) is configuration:
      // not a network error, and no retry can change it.
      throw new NestorError('invalid_options', `${setup.provider}: the SDK refused to start: ${messageOf(error)}`, {
        provider: setup.provider,
        retryable: false,
      })
    }
    return client
  }
}
