/**
 * Collects a stream's bytes up to a cap, keeping the head and the tail: the start of a long output
 * says what ran, its end says how it finished (a test runner's summary, the last error).
 */
export class HeadTail {
  private readonly head: Buffer[] = []
  private headBytes = 0
  private tail: Buffer[] = []
  private tailBytes = 0
  total = 0

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length
    const headRoom = Math.ceil(this.cap / 2) - this.headBytes
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom)
      this.head.push(part)
      this.headBytes += part.length
      chunk = chunk.subarray(part.length)
    }
    if (chunk.length === 0) return
    this.tail.push(chunk)
    this.tailBytes += chunk.length
    const keep = Math.floor(this.cap / 2)
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= keep)
      this.tailBytes -= this.tail.shift()!.length
  }

  /** The kept text; a cut in the middle says how many bytes it left out. */
  text(): string {
    const head = Buffer.concat(this.head).toString('utf8')
    const tailAll = Buffer.concat(this.tail)
    const kept = Math.min(tailAll.length, Math.floor(this.cap / 2))
    const omitted = this.total - this.headBytes - kept
    const tail = tailAll.subarray(tailAll.length - kept).toString('utf8')
    return omitted > 0 ? `${head}\n[… ${omitted} bytes of output left out …]\n${tail}` : head + tail
  }
}
