// The option's type alone, apart from the code that applies it with the SDK's request types: the
// root entry's declarations re-export it without needing @anthropic-ai/sdk.

/**
 * Where `anthropic({ cacheControl })` puts prompt-cache breakpoints. `true` means the defaults:
 * the system prompt, the tools and the last 2 messages (4 breakpoints, the API's maximum).
 */
export type AnthropicCacheControl =
  | boolean
  | {
      /** A breakpoint after the system prompt. Default true. */
      system?: boolean
      /** A breakpoint after the last tool definition (caches every tool). Default true. */
      tools?: boolean
      /** Breakpoints on the last block of each of the last N messages. Default 2. */
      lastMessages?: number
      /** Cache lifetime. Default '5m' (the API's default, sent without a ttl). */
      ttl?: '5m' | '1h'
    }
