import { startWireServer, type CapturedRequest, type WireResponse, type WireServer } from '../support/wire-server.js'

export type LocalServer = WireServer & {
  /** Chat completion bodies, served in order to /v1/chat/completions. */
  chat(...bodies: string[]): void
  chatRequests(): CapturedRequest[]
  showRequests(): CapturedRequest[]
}

/**
 * An Ollama-like server on the real wire: `POST /api/show` reports `capabilities` (or 404 when
 * `capabilities` is undefined, like vLLM), `/v1/chat/completions` streams the queued bodies.
 */
export async function startLocalServer(capabilities: string[] | undefined): Promise<LocalServer> {
  const wire = await startWireServer()
  const chats: string[] = []
  wire.fallback = (request): WireResponse => {
    if (request.url === '/api/show') {
      if (!capabilities)
        return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"error":"not found"}' }
      const model = (request.json as { model?: string } | undefined)?.model ?? ''
      const body = {
        modelfile: '',
        details: { family: 'llama' },
        model_info: { 'llama.context_length': 8192 },
        capabilities,
        model,
      }
      return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    }
    const next = chats.shift()
    if (request.url === '/v1/chat/completions' && next !== undefined) return { body: next }
    return {
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"no chat response queued"}}',
    }
  }
  return Object.assign(wire, {
    chat: (...bodies: string[]) => void chats.push(...bodies),
    chatRequests: () => wire.requests.filter((r) => r.url === '/v1/chat/completions'),
    showRequests: () => wire.requests.filter((r) => r.url === '/api/show'),
  })
}
