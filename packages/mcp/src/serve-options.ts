import { option, parseOptions, strictOptions } from '@nestor/core/provider-kit'

const isArray = (v: unknown): boolean => Array.isArray(v)
const isAgentEntry = (v: unknown): boolean => {
  const e = v as { name?: unknown; description?: unknown; agent?: { asTool?: unknown } } | null
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.name === 'string' &&
    typeof e.description === 'string' &&
    typeof e.agent?.asTool === 'function'
  )
}

const serveOptions = strictOptions(() => ({
  runtime: option.custom<unknown>(
    'a Runtime (new Runtime({ provider, model }))',
    (v) => typeof (v as { runBatch?: unknown } | null)?.runBatch === 'function',
  ),
  tools: option.custom<unknown[]>('an array of tools', isArray).optional(),
  agents: option
    .custom<unknown[]>('an array of { name, description, agent }', (v) => Array.isArray(v) && v.every(isAgentEntry))
    .optional(),
  serverInfo: option.object({ name: option.nonEmptyString(), version: option.nonEmptyString() }).optional(),
}))

/** `serveMcp`'s first argument, checked at the call: a missing runtime fails here, not at the first `tools/call`. */
export const checkServeOptions = (options: unknown): void => parseOptions(serveOptions, options)
