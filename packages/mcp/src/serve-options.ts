import { option, parseOptions, strictOptions } from '@nestor/core/integration-kit'

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

const isFunction = (v: unknown): boolean => typeof v === 'function'
const isResource = (v: unknown): boolean => {
  const r = v as { uri?: unknown; uriTemplate?: unknown; name?: unknown; read?: unknown } | null
  return (
    typeof r === 'object' &&
    r !== null &&
    (typeof r.uri === 'string') !== (typeof r.uriTemplate === 'string') &&
    typeof r.name === 'string' &&
    isFunction(r.read)
  )
}
const isPrompt = (v: unknown): boolean => {
  const p = v as { name?: unknown; get?: unknown; arguments?: unknown } | null
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.name === 'string' &&
    p.name !== '' &&
    isFunction(p.get) &&
    (p.arguments === undefined ||
      (Array.isArray(p.arguments) && p.arguments.every((a) => typeof (a as { name?: unknown })?.name === 'string')))
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
  resources: option
    .custom<unknown[]>('an array of { uri or uriTemplate, name, read }', (v) => Array.isArray(v) && v.every(isResource))
    .optional(),
  prompts: option
    .custom<unknown[]>('an array of { name, get, arguments? }', (v) => Array.isArray(v) && v.every(isPrompt))
    .optional(),
  serverInfo: option.object({ name: option.nonEmptyString(), version: option.nonEmptyString() }).optional(),
}))

/** `serveMcp`'s first argument, checked at the call: a missing runtime fails here, not at the first `tools/call`. */
export const checkServeOptions = (options: unknown): void => parseOptions(serveOptions, options)
