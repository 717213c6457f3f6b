import type Anthropic from '@anthropic-ai/sdk'
import { NestorError } from '@nestor/core'
import { invalidOption } from '@nestor/core/integration-kit'
import type { AnthropicCacheControl } from './cache-control-option.js'

/** Anthropic accepts at most this many `cache_control` blocks per request. */
export const MAX_CACHE_BREAKPOINTS = 4

type Resolved = { system: boolean; tools: boolean; lastMessages: number; ttl?: '1h' }
const keys = ['system', 'tools', 'lastMessages', 'ttl']

/** Checks the option when the provider is made, so a typo fails at once. */
export function resolveCacheControl(option: AnthropicCacheControl | undefined): Resolved | undefined {
  if (option === undefined || option === false) return undefined
  if (option === true) return { system: true, tools: true, lastMessages: 2 }
  if (typeof option !== 'object' || option === null)
    throw invalidOption('cacheControl', 'a boolean or { system?, tools?, lastMessages?, ttl? }', option)
  for (const key of Object.keys(option)) {
    if (!keys.includes(key))
      throw new NestorError(
        'invalid_options',
        `invalid option cacheControl.${key}: unknown key (valid: ${keys.join(', ')})`,
      )
  }
  const lastMessages = option.lastMessages ?? 2
  if (!Number.isInteger(lastMessages) || lastMessages < 0 || lastMessages > MAX_CACHE_BREAKPOINTS) {
    throw invalidOption('cacheControl.lastMessages', `an integer in 0..${MAX_CACHE_BREAKPOINTS}`, option.lastMessages)
  }
  if (option.ttl !== undefined && option.ttl !== '5m' && option.ttl !== '1h')
    throw invalidOption('cacheControl.ttl', "'5m' or '1h'", option.ttl)
  const resolved: Resolved = { system: option.system ?? true, tools: option.tools ?? true, lastMessages }
  if (option.ttl === '1h') resolved.ttl = '1h'
  return resolved
}

type Params = {
  system?: string | Anthropic.TextBlockParam[]
  tools?: Anthropic.ToolUnion[]
  messages: Anthropic.MessageParam[]
}

/**
 * Places the breakpoints on a built request, in priority order system → tools → messages (newest
 * first), never more than the API's 4: a prefix cached at the system prompt serves every request
 * that shares it, a breakpoint on the last messages lets the next turn reuse the conversation.
 * Empty places (no system, no tools) leave their breakpoint to the messages.
 */
export function applyCacheControl(params: Params, cache: Resolved): void {
  const mark: Anthropic.CacheControlEphemeral = cache.ttl
    ? { type: 'ephemeral', ttl: cache.ttl }
    : { type: 'ephemeral' }
  let left = MAX_CACHE_BREAKPOINTS
  if (cache.system && params.system) {
    const blocks: Anthropic.TextBlockParam[] =
      typeof params.system === 'string' ? [{ type: 'text', text: params.system }] : params.system
    const last = blocks.at(-1)
    if (last) {
      last.cache_control = mark
      params.system = blocks
      left--
    }
  }
  if (cache.tools && params.tools && params.tools.length > 0) {
    ;(params.tools.at(-1) as { cache_control?: Anthropic.CacheControlEphemeral }).cache_control = mark
    left--
  }
  const count = Math.min(cache.lastMessages, left)
  for (let i = params.messages.length - 1, placed = 0; i >= 0 && placed < count; i--) {
    const message = params.messages[i] as Anthropic.MessageParam
    const content: Anthropic.ContentBlockParam[] =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    const block = content.at(-1) as { type: string; cache_control?: Anthropic.CacheControlEphemeral } | undefined
    // Thinking blocks cannot carry a breakpoint; such a message is skipped.
    if (!block || block.type === 'thinking' || block.type === 'redacted_thinking') continue
    // Copies of the turn and its last block: turns and blocks are reused by later requests (the
    // history is converted incrementally) and must not keep this request's mark.
    const marked = { ...block, cache_control: mark } as Anthropic.ContentBlockParam
    params.messages[i] = { ...message, content: [...content.slice(0, -1), marked] } as Anthropic.MessageParam
    placed++
  }
}
