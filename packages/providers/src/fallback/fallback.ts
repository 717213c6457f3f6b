import type { Provider } from '@nestor/core'
import type { Capabilities, ModelEvent, ModelRequest, NestorErrorLike } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { invalidOption } from '@nestor/core/integration-kit'
import { PushStream } from '../shared/push-stream.js'

/** A provider in the chain, optionally with the model (and request options) it should be asked for. */
export type FallbackEntry = Provider | { provider: Provider; model?: string; options?: Record<string, unknown> }

/**
 * When to move on: 'retryable' (default) switches only on failures worth a retry (429, 5xx,
 * network, idle) once the provider's own retries are spent; 'any' switches on every failure except
 * an abort. Either way a failure after content streamed is final: switching would duplicate output.
 */
export type FallbackOn = 'retryable' | 'any'

export type FallbackOptions = {
  /** Provider name on errors. Default `fallback(<names>)`. */
  name?: string
  on?: FallbackOn
}

type Link = { provider: Provider; model?: string; options?: Record<string, unknown> }

const optionKeys = ['name', 'on'] as const

/**
 * A provider that asks `providers[0]`, and when it fails before any content streamed, asks the
 * next one with the same neutral request (each adapter turns it into its own wire format). The
 * switch is reported as a `retry` event whose error names both providers.
 */
export function fallback(providers: FallbackEntry[], options: FallbackOptions = {}): Provider {
  const links = checkChain(providers)
  checkOptions(options)
  const on: FallbackOn = options.on ?? 'retryable'
  const name = options.name ?? `fallback(${links.map((l) => l.provider.name).join(',')})`

  const run = async (
    request: ModelRequest,
    signal: AbortSignal | undefined,
    sink: (event: ModelEvent) => void,
  ): Promise<void> => {
    let attempt = 0
    for (let index = 0; index < links.length; index++) {
      const link = links[index] as Link
      const outcome = await streamOne(link, request, signal, sink)
      if (outcome.kind === 'final') return
      attempt += outcome.retries + 1
      const next = links[index + 1]
      const canSwitch =
        next !== undefined &&
        !signal?.aborted &&
        outcome.error.code !== 'aborted' &&
        (on === 'any' || outcome.error.retryable === true)
      if (!canSwitch) {
        // The last failure stands as the chain's failure, reported with its own message.
        if (outcome.start) sink(outcome.start)
        sink(outcome.terminal)
        return
      }
      const error = new NestorError(
        'provider_error',
        `${link.provider.name} failed (${outcome.error.message}); switching to ${next.provider.name}`,
        {
          provider: link.provider.name,
          retryable: true,
          ...(outcome.error.status === undefined ? {} : { status: outcome.error.status }),
        },
      )
      sink({ type: 'retry', attempt, delayMs: 0, error })
    }
  }

  const provider: Provider = {
    name,
    stream(request, signal) {
      const out = new PushStream<ModelEvent>()
      void run(request, signal, (event) => out.push(event)).finally(() => out.end())
      return out
    },
    streamTo: run,
    secrets: () => [...new Set(links.flatMap((l) => l.provider.secrets?.() ?? []))],
  }
  const first = links[0] as Link
  if (first.provider.capabilities) {
    provider.capabilities = (model: string): Promise<Capabilities> =>
      (first.provider.capabilities as (m: string) => Promise<Capabilities>)(first.model ?? model)
  }
  // A message names the entry that served it: that entry's catalogue prices it. Before a call
  // (a budget's estimate) the first entry is the one asked.
  provider.modelInfo = async (model, servedBy) => {
    const link = servedBy === undefined ? first : links.find((l) => l.provider.name === servedBy)
    if (!link?.provider.modelInfo) return undefined
    return link.provider.modelInfo(servedBy === undefined ? (link.model ?? model) : model)
  }
  return provider
}

type Outcome =
  | { kind: 'final' }
  | { kind: 'failed'; error: NestorErrorLike; retries: number; start?: ModelEvent; terminal: ModelEvent }

/**
 * Streams one provider into `sink`, holding back its `start` until content (or success) shows up,
 * so a provider that fails before any content leaves no trace except its own retry events.
 */
async function streamOne(
  link: Link,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  sink: (event: ModelEvent) => void,
): Promise<Outcome> {
  const own: ModelRequest = { ...request }
  if (link.model !== undefined) own.model = link.model
  if (link.options !== undefined) own.options = { ...request.options, ...link.options }
  let held: ModelEvent | undefined
  let committed = false
  let retries = 0
  let outcome: Outcome | undefined
  const commit = () => {
    if (committed) return
    committed = true
    if (held) sink(held)
  }
  const handle = (event: ModelEvent): void => {
    if (outcome) return
    switch (event.type) {
      case 'start':
        if (committed) sink(event)
        else held = event
        return
      case 'retry':
        retries++
        sink(event)
        return
      case 'error':
        if (!committed) {
          outcome = { kind: 'failed', error: event.error, retries, terminal: event, ...(held ? { start: held } : {}) }
          return
        }
        sink(event)
        outcome = { kind: 'final' }
        return
      case 'done':
        commit()
        sink(event)
        outcome = { kind: 'final' }
        return
      default:
        commit()
        sink(event)
    }
  }
  try {
    if (link.provider.streamTo) await link.provider.streamTo(own, signal, handle)
    else
      for await (const event of link.provider.stream(own, signal)) {
        handle(event)
        if (outcome) break
      }
  } catch (thrown) {
    // A provider that breaks the never-throw contract is treated as a non-retryable failure.
    if (!outcome) {
      const error = NestorError.isInstance(thrown)
        ? thrown
        : new NestorError('provider_error', thrown instanceof Error ? thrown.message : String(thrown), {
            provider: link.provider.name,
            retryable: false,
          })
      return failedWithoutMessage(link, own, error, retries, held, committed, sink)
    }
  }
  if (outcome) return outcome
  const error = new NestorError(
    'provider_error',
    `provider ${link.provider.name} ended its stream without a final message`,
    { provider: link.provider.name, retryable: false },
  )
  return failedWithoutMessage(link, own, error, retries, held, committed, sink)
}

function failedWithoutMessage(
  link: Link,
  request: ModelRequest,
  error: NestorError,
  retries: number,
  held: ModelEvent | undefined,
  committed: boolean,
  sink: (event: ModelEvent) => void,
): Outcome {
  const message =
    held?.type === 'start'
      ? held.message
      : {
          role: 'assistant' as const,
          content: [],
          stopReason: 'error' as const,
          usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          provider: link.provider.name,
          model: request.model,
        }
  message.stopReason = 'error'
  message.errorMessage = error.message
  const terminal: ModelEvent = { type: 'error', message, error }
  if (committed) {
    sink(terminal)
    return { kind: 'final' }
  }
  return { kind: 'failed', error, retries, terminal, ...(held ? { start: held } : {}) }
}

function checkChain(providers: unknown): Link[] {
  if (!Array.isArray(providers) || providers.length === 0)
    throw invalidOption('providers', 'a non-empty array of providers', providers)
  return providers.map((entry: unknown, i) => {
    if (isProvider(entry)) return { provider: entry }
    if (entry && typeof entry === 'object' && isProvider((entry as { provider?: unknown }).provider)) {
      const { provider, model, options } = entry as { provider: Provider; model?: unknown; options?: unknown }
      if (model !== undefined && (typeof model !== 'string' || model === ''))
        throw invalidOption(`providers[${i}].model`, 'a non-empty string', model)
      if (options !== undefined && (typeof options !== 'object' || options === null))
        throw invalidOption(`providers[${i}].options`, 'an object', options)
      const link: Link = { provider }
      if (model !== undefined) link.model = model
      if (options !== undefined) link.options = options as Record<string, unknown>
      return link
    }
    throw invalidOption(`providers[${i}]`, 'a Provider or { provider, model? }', entry)
  })
}

function isProvider(value: unknown): value is Provider {
  return (
    !!value &&
    typeof value === 'object' &&
    typeof (value as Provider).name === 'string' &&
    typeof (value as Provider).stream === 'function'
  )
}

function checkOptions(options: FallbackOptions): void {
  for (const key of Object.keys(options)) {
    if (!(optionKeys as readonly string[]).includes(key)) {
      throw new NestorError('invalid_options', `fallback: unknown option "${key}" (valid: ${optionKeys.join(', ')})`)
    }
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === ''))
    throw invalidOption('name', 'a non-empty string', options.name)
  if (options.on !== undefined && options.on !== 'retryable' && options.on !== 'any')
    throw invalidOption('on', "'retryable' or 'any'", options.on)
}
