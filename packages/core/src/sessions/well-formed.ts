// A fast check of the common shapes of a stored message (text, thinking and tool calls), equal to
// the message schema's rules for them; anything else (media, resources, unusual blocks) is left to
// the schema. Reading a session of 1,000 messages through zod alone took ~50 ms; this takes ~1.
// Values are as JSON.parse gives them, so records (tool arguments, provider data) hold JSON.

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown) => typeof v === 'string'
const optStr = (v: unknown) => v === undefined || typeof v === 'string'
const STOP_REASONS = new Set(['stop', 'length', 'toolUse', 'error', 'aborted'])

function isUsage(v: unknown): boolean {
  if (!isObj(v)) return false
  const { input, output, cacheRead, cacheWrite, total } = v
  return [input, output, cacheRead, cacheWrite, total].every((n) => typeof n === 'number')
}

const isText = (b: Obj) => b.type === 'text' && str(b.text)

function isAssistantBlock(b: unknown): boolean {
  if (!isObj(b)) return false
  if (b.type === 'text') return str(b.text)
  if (b.type === 'thinking')
    return str(b.thinking) && optStr(b.signature) && (b.redacted === undefined || typeof b.redacted === 'boolean')
  if (b.type === 'toolCall')
    return (
      str(b.id) &&
      str(b.name) &&
      isObj(b.arguments) &&
      (b.providerData === undefined || isObj(b.providerData)) &&
      optStr(b.invalidArguments)
    )
  return false
}

/** True when `m` surely fits the message schema; false means "ask the schema" (not "bad"). */
export function surelyWellFormed(m: unknown): boolean {
  if (!isObj(m)) return false
  if (m.role === 'user')
    return str(m.content) || (Array.isArray(m.content) && m.content.every((b) => isObj(b) && isText(b)))
  if (m.role === 'assistant')
    return (
      Array.isArray(m.content) &&
      m.content.every(isAssistantBlock) &&
      STOP_REASONS.has(m.stopReason as string) &&
      isUsage(m.usage) &&
      str(m.provider) &&
      str(m.model) &&
      optStr(m.errorMessage) &&
      optStr(m.responseId) &&
      optStr(m.refusal) &&
      (m.providerData === undefined || isObj(m.providerData))
    )
  if (m.role === 'toolResult')
    return (
      str(m.toolCallId) &&
      str(m.toolName) &&
      typeof m.isError === 'boolean' &&
      Array.isArray(m.content) &&
      m.content.every((b) => isObj(b) && isText(b))
    )
  return false
}
