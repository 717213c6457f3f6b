import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Provider } from '@nestor/core'
import { anthropic, gemini, openai, openaiCompatible } from '@nestor/providers'

export type LiveProviderName = 'openai' | 'anthropic' | 'gemini' | 'ollama'
export const LIVE_PROVIDERS: readonly LiveProviderName[] = ['openai', 'anthropic', 'gemini', 'ollama']

const defaults: Record<LiveProviderName, { model: string; env?: string }> = {
  openai: { model: 'gpt-4.1-mini', env: 'OPENAI_API_KEY' },
  anthropic: { model: 'claude-sonnet-4-5', env: 'ANTHROPIC_API_KEY' },
  gemini: { model: 'gemini-2.5-flash', env: 'GEMINI_API_KEY' },
  ollama: { model: 'qwen3:4b' },
}

/**
 * A real provider by name, or a sentence saying why not (a missing key). Keys come from the usual
 * environment variables; Ollama from OLLAMA_BASE_URL (default http://localhost:11434/v1).
 */
export function liveProvider(name: string, model?: string): { provider: Provider; model: string } | string {
  if (!(LIVE_PROVIDERS as readonly string[]).includes(name))
    return `unknown provider ${JSON.stringify(name)}: use one of ${LIVE_PROVIDERS.join(', ')}`
  const known = defaults[name as LiveProviderName]
  const chosen = model ?? known.model
  if (name === 'gemini' && !process.env.GEMINI_API_KEY && !process.env.GOOGLE_API_KEY)
    return 'gemini needs GEMINI_API_KEY (or GOOGLE_API_KEY)'
  if (known.env && name !== 'gemini' && !process.env[known.env]) return `${name} needs ${known.env}`
  switch (name as LiveProviderName) {
    case 'openai':
      return { provider: openai(), model: chosen }
    case 'anthropic':
      return { provider: anthropic(), model: chosen }
    case 'gemini':
      return { provider: gemini(), model: chosen }
    case 'ollama':
      return {
        provider: openaiCompatible({
          baseURL: process.env.OLLAMA_BASE_URL ?? 'http://localhost:11434/v1',
          toolProtocol: 'auto',
          name: 'ollama',
        }),
        model: chosen,
      }
  }
}

/** The workspace root (where pnpm-workspace.yaml is), from this file in src or in dist. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const up = dirname(dir)
    if (up === dir) throw new Error('cannot find the workspace root (pnpm-workspace.yaml)')
    dir = up
  }
  return dir
}

/** `--name value` and `--flag` arguments. */
export function parseArgs(argv: string[]): Map<string, string | true> {
  const out = new Map<string, string | true>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (!arg.startsWith('--') || arg === '--') continue
    const [key, inline] = arg.slice(2).split('=', 2) as [string, string | undefined]
    const next = argv[i + 1]
    if (inline !== undefined) out.set(key, inline)
    else if (next !== undefined && !next.startsWith('--')) out.set(key, (i++, next))
    else out.set(key, true)
  }
  return out
}
