import { join, mkdir, readFile, rename, writeFile } from './files/node.js'
import type { AssistantMessage, Provider } from '@nestor/core'
import type { ModelEvent, ModelRequest, SameKeys } from '@nestor/core/integration-kit'
import { NestorError } from '@nestor/core'
import { modelInfo } from '../catalogue/model-info.js'
import { emptyUsage, option, parseOptions, redactDeep, sleep, strictOptions } from '@nestor/core/integration-kit'
import {
  CASSETTE_VERSION,
  canonicalRequest,
  checkCassette,
  eventToJson,
  requestKey,
  type Cassette,
} from './cassette.js'
import { isOfflineProvider, offlineProvider } from './offline.js'
import { redactRecording } from './redact-recording.js'

export type ReplayMode = 'strict' | 'record' | 'auto'

export type ReplayOptions = {
  /** The provider that answers in `record` and `auto` mode (required for them). */
  provider?: Provider
  /** Folder of `${key}.json` cassettes. Created when recording. */
  dir: string
  /** strict: only cassettes, a miss is `replay_miss`; record: always call and (over)write; auto: replay if present, else record. */
  mode: ReplayMode
  /**
   * More strings to redact from recordings (the runtime's `secrets`), besides the provider's own;
   * a function is asked at each call (an eval learns them as the task's execs open).
   */
  secrets?: string[] | (() => readonly string[])
  /** Wait this long before each replayed event, so an offline demo can be watched. Default 0. */
  paceMs?: number
}

export type ReplayProvider = Provider & {
  readonly mode: ReplayMode
  readonly dir: string
  /** The cassette key of a request (what file it would be read from or written to). */
  keyOf(request: ModelRequest): string
  readonly [offlineProvider]: boolean
}

/**
 * A cassette provider: each model call is keyed by the sha256 of its canonical request. Replays
 * emit the recorded ModelEvents; recordings store the inner provider's stream with every string
 * passed through its `secrets()` redaction. Only streams that end in `done` are written: a failed
 * or aborted call is not an answer worth replaying, and `retry` events (network weather) are dropped.
 */
const replayShape = () => ({
  provider: option
    .custom<Provider>(
      'a Provider with a stream() method',
      (v) => typeof v === 'object' && v !== null && typeof (v as { stream?: unknown }).stream === 'function',
    )
    .optional(),
  dir: option.nonEmptyString('a folder path'),
  mode: option.oneOf(['strict', 'record', 'auto']),
  secrets: option
    .custom<string[] | (() => readonly string[])>(
      'a list of strings, or a function returning one',
      (v) => typeof v === 'function' || (Array.isArray(v) && v.every((s) => typeof s === 'string')),
    )
    .optional(),
  paceMs: option.nonNegative().optional(),
})
const replaySchema = strictOptions(replayShape)
const replayKeysMatch: SameKeys<ReturnType<typeof replayShape>, ReplayOptions> = true
void replayKeysMatch

export function replay(options: ReplayOptions): ReplayProvider {
  parseOptions(replaySchema, options)
  const { provider: inner, dir, mode } = options
  if (mode !== 'strict' && mode !== 'record' && mode !== 'auto') {
    throw new NestorError(
      'invalid_options',
      `invalid option mode: expected 'strict' | 'record' | 'auto', got ${String(mode)}`,
    )
  }
  if (mode !== 'strict' && !inner) {
    throw new NestorError(
      'invalid_options',
      `invalid option provider: replay mode '${mode}' needs a provider to record from`,
    )
  }
  const name = inner?.name ?? 'replay'
  const given = options.secrets
  const secrets = (): string[] => [
    ...(typeof given === 'function' ? given() : (given ?? [])),
    ...(inner?.secrets?.() ?? []),
  ]
  // Keyed by the request as the cassette stores it, redacted: a secret is not hashed into a file
  // name, a replay under another value of the secret finds the recording, and so does a later
  // turn that quotes a redacted reply (replayed as [REDACTED], recorded live in clear).
  const summaryOf = (request: ModelRequest) => redactDeep(canonicalRequest(request), secrets())
  const keyOf = (request: ModelRequest) => requestKey(summaryOf(request))

  const provider: ReplayProvider = {
    name,
    mode,
    dir,
    keyOf,
    // Offline when it can never reach the network: strict mode, or recording from an offline model.
    [offlineProvider]: mode === 'strict' || (inner !== undefined && isOfflineProvider(inner)),
    secrets,
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ModelEvent> {
      const summary = summaryOf(request)
      const key = requestKey(summary)
      const file = join(dir, `${key}.json`)
      if (mode !== 'record') {
        const found = await load(file, key)
        if (typeof found === 'object') return yield* play(found, signal, options.paceMs ?? 0)
        if (found !== 'missing' || mode === 'strict') {
          const why =
            found === 'missing'
              ? `no cassette for request key ${key} in ${dir} (mode 'strict' never substitutes another recording; record it with mode 'record' or 'auto')`
              : found
          return yield* failed(
            name,
            request.model,
            new NestorError('replay_miss', why, { provider: name, retryable: false }),
          )
        }
      }
      yield* record(inner as Provider, request, signal, summary, key, file)
    },
  }
  if (inner?.capabilities)
    provider.capabilities = (model) => (inner.capabilities as NonNullable<Provider['capabilities']>)(model)
  // A replayed message is priced as its recording says it was served (a cassette of `openai` turns
  // at OpenAI's prices), through the inner provider when there is one.
  provider.modelInfo = (model, servedBy) =>
    inner?.modelInfo ? inner.modelInfo(model, servedBy) : modelInfo(servedBy ?? name, model)

  async function* record(
    from: Provider,
    request: ModelRequest,
    signal: AbortSignal | undefined,
    summary: ReturnType<typeof canonicalRequest>,
    key: string,
    file: string,
  ): AsyncGenerator<ModelEvent> {
    const events: unknown[] = []
    for await (const event of from.stream(request, signal)) {
      if (event.type !== 'retry') events.push(eventToJson(event))
      // Written before the final event is handed on: a consumer may stop iterating right after it.
      // Redacted as a whole stream, so a secret split across deltas is caught too.
      if (event.type === 'done') {
        await write(
          {
            version: CASSETTE_VERSION,
            key,
            request: summary,
            events: redactRecording(events, secrets()),
          },
          file,
        )
      }
      yield event
      if (event.type === 'done' || event.type === 'error') return
    }
  }

  async function write(cassette: Cassette, file: string): Promise<void> {
    await mkdir(dir, { recursive: true })
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(temp, `${JSON.stringify(cassette, null, 2)}\n`, 'utf8')
    await rename(temp, file)
  }

  return provider
}

async function load(file: string, key: string): Promise<Cassette | 'missing' | string> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing'
    return `cannot read cassette ${file}: ${(error as Error).message}`
  }
  try {
    return checkCassette(JSON.parse(text), key, file)
  } catch {
    return `cassette ${file} is not valid JSON`
  }
}

/** Re-emits a recording. Stops with an aborted error (partial content kept) if the signal fires. */
async function* play(cassette: Cassette, signal: AbortSignal | undefined, paceMs: number): AsyncGenerator<ModelEvent> {
  let partial: AssistantMessage | undefined
  for (const raw of cassette.events) {
    if (paceMs > 0) await sleep(paceMs, signal)
    const event = eventFromJson(raw)
    if (event.type === 'start') partial = structuredClone(event.message)
    if (signal?.aborted && partial) {
      partial.stopReason = 'aborted'
      partial.errorMessage = 'aborted'
      yield { type: 'error', message: partial, error: new NestorError('aborted', 'aborted') }
      return
    }
    if (partial) grow(partial, event)
    yield event
    if (event.type === 'done' || event.type === 'error') return
  }
  const message = partial ?? {
    role: 'assistant',
    content: [],
    stopReason: 'error',
    usage: emptyUsage(),
    provider: 'replay',
    model: cassette.request.model,
  }
  message.stopReason = 'error'
  message.errorMessage = `cassette ${cassette.key} ends without done or error`
  yield { type: 'error', message, error: new NestorError('replay_miss', message.errorMessage, { retryable: false }) }
}

/** Keeps a partial copy of the message in step with the deltas, for an abort mid-replay. */
function grow(message: AssistantMessage, event: ModelEvent): void {
  const last = message.content.at(-1)
  if (event.type === 'text_delta') {
    if (last?.type === 'text') last.text += event.delta
    else message.content.push({ type: 'text', text: event.delta })
  } else if (event.type === 'thinking_delta') {
    if (last?.type === 'thinking') last.thinking += event.delta
    else message.content.push({ type: 'thinking', thinking: event.delta })
  } else if (event.type === 'toolcall_end') {
    message.content.push(event.toolCall)
  }
}

function eventFromJson(raw: unknown): ModelEvent {
  const event = raw as ModelEvent & {
    error?: { code?: string; message?: string; status?: number; provider?: string; retryable?: boolean }
  }
  if ((event.type === 'error' || event.type === 'retry') && event.error) {
    const e = event.error
    const extra: { status?: number; provider?: string; retryable?: boolean } = {}
    if (e.status !== undefined) extra.status = e.status
    if (e.provider !== undefined) extra.provider = e.provider
    if (e.retryable !== undefined) extra.retryable = e.retryable
    const error = new NestorError((e.code ?? 'provider_error') as NestorError['code'], e.message ?? 'error', extra)
    return { ...event, error } as ModelEvent
  }
  return event
}

async function* failed(provider: string, model: string, error: NestorError): AsyncGenerator<ModelEvent> {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [],
    stopReason: 'error',
    usage: emptyUsage(),
    provider,
    model,
    errorMessage: error.message,
  }
  yield { type: 'start', message: structuredClone(message) }
  yield { type: 'error', message, error }
}
