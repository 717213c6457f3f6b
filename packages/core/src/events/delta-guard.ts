import { redactString } from './redact.js'

/**
 * Keeps secrets out of streamed deltas even when the model's output splits one across chunks.
 * Each stream (text, thinking, each tool call's arguments) holds back the shortest tail that could
 * still grow into a secret; everything before it is released with whole secrets replaced. The
 * released pieces concatenate to the redacted text, so a consumer that joins deltas gets what
 * `message_end` holds. Only built when the exec has secrets.
 */
export class DeltaGuard {
  private readonly secrets: readonly string[]
  private readonly held = new Map<string, string>()

  constructor(secrets: readonly string[]) {
    this.secrets = [...secrets].sort((a, b) => b.length - a.length)
  }

  /** The part of `text` (after what this stream held back) that is safe to emit now. */
  feed(stream: string, text: string): string {
    const combined = (this.held.get(stream) ?? '') + text
    const clean = redactString(combined, this.secrets)
    const keep = this.unfinishedTail(clean)
    if (keep > 0) this.held.set(stream, clean.slice(clean.length - keep))
    else this.held.delete(stream)
    return keep > 0 ? clean.slice(0, clean.length - keep) : clean
  }

  /** Releases what a stream held back (its block ended). */
  flush(stream: string): string {
    const rest = this.held.get(stream) ?? ''
    this.held.delete(stream)
    return rest
  }

  /** Streams with something held back, in the order they started holding. */
  pending(): string[] {
    return [...this.held.keys()]
  }

  /** Length of the longest tail of `text` that is a proper prefix of some secret. */
  private unfinishedTail(text: string): number {
    let longest = 0
    for (const secret of this.secrets) {
      const first = secret[0] as string
      const from = Math.max(0, text.length - secret.length + 1)
      for (let i = text.indexOf(first, from); i !== -1; i = text.indexOf(first, i + 1)) {
        const tail = text.length - i
        if (tail <= longest) break
        if (secret.startsWith(text.slice(i))) {
          longest = tail
          break
        }
      }
    }
    return longest
  }
}
