import { createHash, createHmac } from 'node:crypto'
import { EventStreamCodec } from '@smithy/eventstream-codec'
import { SignatureV4 } from '@smithy/signature-v4'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { bedrock } from '@nestor/providers'
import type { CapturedRequest, WireResponse } from './wire-server.js'
import { startH2Server, type H2Server } from './h2-server.js'
import { serverPerTest } from './server-per-test.js'

export const credentials = { accessKeyId: 'AKIDNESTORFAKE', secretAccessKey: 'nestor-fake-secret-key-0123456789' }
export const region = 'eu-west-1'
export const modelId = 'anthropic.claude-sonnet-4-5-20250929-v1:0'

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString('utf8'),
  (text) => new Uint8Array(Buffer.from(text, 'utf8')),
)

/** One ConverseStream output member, as the service frames it: `:event-type` names the member. */
export type Frame =
  { event: string; body: Record<string, unknown> } | { exception: string; body: Record<string, unknown> }

/** AWS event-stream binary framing (prelude, headers, payload, CRCs) of the given members. */
export function eventStream(frames: Frame[]): Buffer {
  const encoded = frames.map((frame) => {
    const headers: Record<string, { type: 'string'; value: string }> =
      'event' in frame
        ? {
            ':message-type': { type: 'string' as const, value: 'event' },
            ':event-type': { type: 'string' as const, value: frame.event },
          }
        : {
            ':message-type': { type: 'string' as const, value: 'exception' },
            ':exception-type': { type: 'string' as const, value: frame.exception },
          }
    const body = new Uint8Array(Buffer.from(JSON.stringify(frame.body), 'utf8'))
    return codec.encode({
      headers: { ...headers, ':content-type': { type: 'string', value: 'application/json' } },
      body,
    })
  })
  return Buffer.concat(encoded.map((bytes) => Buffer.from(bytes)))
}

export const streamResponse = (frames: Frame[], extra: Partial<WireResponse> = {}): WireResponse => ({
  headers: { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'req-1' },
  body: eventStream(frames),
  ...extra,
})

/** An HTTP-level error the way Converse returns one: JSON body, type in `x-amzn-errortype`. */
export const errorResponse = (status: number, type: string, message: string): WireResponse => ({
  status,
  headers: {
    'content-type': 'application/json',
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
  },
  body: JSON.stringify({ message }),
})

export const text = (...parts: string[]): Frame[] => [
  { event: 'messageStart', body: { role: 'assistant' } },
  ...parts.map((t): Frame => ({ event: 'contentBlockDelta', body: { contentBlockIndex: 0, delta: { text: t } } })),
  { event: 'contentBlockStop', body: { contentBlockIndex: 0 } },
  { event: 'messageStop', body: { stopReason: 'end_turn' } },
  {
    event: 'metadata',
    body: {
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 47, cacheReadInputTokens: 20, cacheWriteInputTokens: 10 },
      metrics: { latencyMs: 120 },
    },
  },
]

class Sha256 {
  private readonly hash
  constructor(secret?: unknown) {
    this.hash =
      secret === undefined ? createHash('sha256') : createHmac('sha256', Buffer.from(secret as Uint8Array | string))
  }
  update(data: Uint8Array | string): void {
    this.hash.update(data)
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest())
  }
}

/**
 * Re-signs the captured request with the same fake credentials, the way the service checks SigV4,
 * and returns whether the Authorization header the SDK sent matches.
 */
export async function signatureIsValid(request: CapturedRequest, port: number): Promise<boolean> {
  const auth = String(request.headers.authorization ?? '')
  const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? []
  const amzDate = String(request.headers['x-amz-date'] ?? '')
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate)
  if (!match || signedHeaders.length === 0) return false
  // The signer trusts a declared payload hash, as the service does after checking it against the body.
  const declared = request.headers['x-amz-content-sha256']
  if (declared !== undefined && declared !== createHash('sha256').update(request.body).digest('hex')) return false
  const [, y, mo, d, h, mi, s] = match
  const signingDate = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)))
  const headers: Record<string, string> = {}
  for (const name of signedHeaders) headers[name] = String(request.headers[name] ?? '')
  const signer = new SignatureV4({
    credentials,
    region,
    service: 'bedrock',
    sha256: Sha256 as never,
    uriEscapePath: true,
  })
  const [path, query = ''] = request.url.split('?')
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: 'http:',
      hostname: '127.0.0.1',
      port,
      path: path ?? '/',
      query: Object.fromEntries(new URLSearchParams(query)),
      headers,
      body: request.body,
    },
    { signingDate },
  )
  return signed.headers.authorization === auth
}

/** A wire server per test, closed afterwards. */
export function useBedrockWire(): { readonly server: H2Server } {
  const current = serverPerTest(startH2Server)
  return {
    get server() {
      return current()
    },
  }
}

export const provider = (server: H2Server, extra: Parameters<typeof bedrock>[0] = {}) =>
  bedrock({ region, credentials, endpoint: server.url, ...extra })

export async function collect(
  stream: AsyncIterable<ModelEvent>,
): Promise<{ events: ModelEvent[]; last: Extract<ModelEvent, { type: 'done' | 'error' }> }> {
  const events: ModelEvent[] = []
  for await (const event of stream) events.push(event)
  const last = events.at(-1)
  if (!last || (last.type !== 'done' && last.type !== 'error'))
    throw new Error(`stream did not end with done/error: ${last?.type}`)
  return { events, last }
}
