import type { Capabilities } from '@nestor/core/integration-kit'

/** What a server told us about a model; `reported` is false when it has no discovery endpoint. */
export type Discovered = Capabilities & { reported: boolean }

/** Ollama's native API lives beside its OpenAI one: `http://host:11434/v1` → `http://host:11434`. */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '')
}

/**
 * Asks Ollama's `POST /api/show` for a model's capabilities (`capabilities` array: "tools",
 * "thinking"…; context length from `model_info`). Servers without that endpoint (vLLM, LM Studio)
 * answer 404 or not at all: that is `reported: false`, tools unknown.
 */
export async function discover(
  root: string,
  model: string,
  headers: Record<string, string>,
  timeoutMs = 5000,
): Promise<Discovered> {
  const response = await fetch(`${root}/api/show`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ model }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok) {
    await response.body?.cancel()
    return { tools: false, thinking: false, reported: false }
  }
  const body = (await response.json().catch(() => undefined)) as
    { capabilities?: unknown; model_info?: Record<string, unknown> } | undefined
  if (!body || !Array.isArray(body.capabilities)) return { tools: false, thinking: false, reported: false }
  const caps = body.capabilities.filter((c): c is string => typeof c === 'string')
  const out: Discovered = { tools: caps.includes('tools'), thinking: caps.includes('thinking'), reported: true }
  const context = Object.entries(body.model_info ?? {}).find(
    ([k, v]) => k.endsWith('.context_length') && typeof v === 'number',
  )
  if (context) out.contextWindow = context[1] as number
  return out
}
