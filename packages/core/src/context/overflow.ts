import type { NestorErrorLike } from '../contract/types.js'

/** What a provider's "request too long" error says: the tokens it counted and its limit, when it says. */
export type Overflow = { tokens?: number; limit?: number }

// Each provider words the error its own way; these are the wordings of their APIs (OpenAI's
// `context_length_exceeded` and Responses' "exceeds the context window", Anthropic's "prompt is
// too long", Gemini's "input token count … exceeds", Bedrock's "Input is too long"/"too many input
// tokens"). Matched on the message so a fallback or a proxy in between changes nothing.
const WORDINGS = [
  /maximum context length/i,
  /context[_ ]length[_ ]exceeded/i,
  /exceeds the context window/i,
  /prompt is too long/i,
  /input token count.*exceeds/i,
  /input is too long/i,
  /too many (input )?tokens/i,
]

const COUNTS: [RegExp, (m: RegExpMatchArray) => Overflow][] = [
  // OpenAI: "maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens"
  [/context length is (\d+) tokens.*?resulted in (\d+) tokens/is, (m) => ({ limit: +m[1]!, tokens: +m[2]! })],
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  [/(\d+) tokens > (\d+)/i, (m) => ({ tokens: +m[1]!, limit: +m[2]! })],
  // Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)"
  [
    /token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)/i,
    (m) => ({ tokens: +m[1]!, limit: +m[2]! }),
  ],
]

/** The overflow a provider error reports, or undefined when the error is something else. */
export function overflowOf(error: NestorErrorLike | undefined): Overflow | undefined {
  if (!error || error.code !== 'provider_error') return undefined
  if (error.status !== undefined && error.status !== 400 && error.status !== 413) return undefined
  const text = error.message
  if (!WORDINGS.some((wording) => wording.test(text))) return undefined
  for (const [pattern, read] of COUNTS) {
    const match = text.match(pattern)
    if (match) return read(match)
  }
  return {}
}
