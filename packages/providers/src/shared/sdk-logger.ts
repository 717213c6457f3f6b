import { option, redactString } from '@nestor/core/integration-kit'

export type ProviderLogLevel = 'error' | 'warn' | 'info' | 'debug'
export type ProviderLogEntry = { provider: string; level: ProviderLogLevel; message: string }

/**
 * Where an adapter's SDK may write its diagnostics (a malformed chunk, a retry it considered).
 * Off unless given: SDKs otherwise print to stderr, raw chunk included. Every message is redacted
 * with the provider's secrets (its API key) and `secrets` before `log` sees it.
 */
export type ProviderLogger = {
  log(entry: ProviderLogEntry): void
  /** The most verbose level passed on. Default 'warn'. */
  level?: ProviderLogLevel
  /** More strings to hide (pass the runtime's `secrets`). */
  secrets?: string[]
}

/** The check of every adapter's `logger` option. */
export const loggerOption = () =>
  option
    .custom<ProviderLogger>(
      'a logger { log(entry) }',
      (v) => typeof v === 'object' && v !== null && typeof (v as { log?: unknown }).log === 'function',
    )
    .optional()

type NodeUtil = typeof import('node:util')
// node:util where the runtime has one (Node, Bun, Deno, Workers), fetched at the first log so a
// browser bundle of an adapter imports no node: module; elsewhere JSON.
function formatted(part: unknown): string {
  const process = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process
  const util = process?.getBuiltinModule?.('node:util') as NodeUtil | undefined
  if (util) return util.inspect(part, { depth: 4, breakLength: Infinity })
  try {
    return part instanceof Error ? String(part.stack ?? part) : (JSON.stringify(part) ?? String(part))
  } catch {
    return String(part)
  }
}

type SdkLogFn = (message: string, ...rest: unknown[]) => void
export type SdkLoggingOptions = { logLevel: 'off' | ProviderLogLevel; logger: Record<ProviderLogLevel, SdkLogFn> }

const LEVELS: readonly ProviderLogLevel[] = ['error', 'warn', 'info', 'debug']

/**
 * The `logLevel` / `logger` client options for the OpenAI and Anthropic SDKs: 'off' with no
 * logger given (an environment variable such as OPENAI_LOG cannot turn the SDK's printing back
 * on), else every SDK log call becomes one redacted entry.
 */
export function sdkLogging(
  provider: string,
  logger: ProviderLogger | undefined,
  secrets: () => string[],
): SdkLoggingOptions {
  const write =
    (level: ProviderLogLevel): SdkLogFn =>
    (message, ...rest) => {
      if (!logger) return
      const text = [message, ...rest].map((part) => (typeof part === 'string' ? part : formatted(part))).join(' ')
      try {
        logger.log({ provider, level, message: redactString(text, [...secrets(), ...(logger.secrets ?? [])]) })
      } catch {
        // A failing log sink must not fail the model call that happened to log.
      }
    }
  const sink = Object.fromEntries(LEVELS.map((level) => [level, write(level)])) as Record<ProviderLogLevel, SdkLogFn>
  return { logLevel: logger ? (logger.level ?? 'warn') : 'off', logger: sink }
}
