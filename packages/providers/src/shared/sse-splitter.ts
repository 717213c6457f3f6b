/** One server-sent event: its `event:` name (null without one) and its `data:` lines joined by '\n'. */
export type SseMessage = { event: string | null; data: string }

/**
 * Splits a server-sent-events byte stream into messages, in time linear in the bytes. The SDKs'
 * own readers copy their whole buffer once per event, which costs the square of what one network
 * read delivers, and a client that is busy between reads gets bigger reads: the slower the
 * consumer, the more parsing costs. Lines end with \n, \r\n or \r (a \r\n may be split between two
 * reads); a line starting with ':' is a comment; an event is dispatched at a blank line when it has
 * data, and one the stream cut off before its blank line is dropped, as the SSE spec says.
 */
export class SseSplitter {
  private readonly decoder = new TextDecoder()
  /** Pieces of a line that has not ended yet: joined once it does, so a long line stays linear. */
  private readonly partial: string[] = []
  /** The last read ended in \r: a \n starting the next one belongs to that line end. */
  private afterCarriageReturn = false
  private event: string | null = null
  private data: string | undefined

  /** The messages completed by these bytes, in order. */
  push(bytes: Uint8Array): SseMessage[] {
    const out: SseMessage[] = []
    this.lines(this.decoder.decode(bytes, { stream: true }), out)
    return out
  }

  /** The stream ended: the decoder's last characters; an unfinished event is dropped. */
  end(): SseMessage[] {
    const out: SseMessage[] = []
    this.lines(this.decoder.decode(), out)
    return out
  }

  private lines(decoded: string, out: SseMessage[]): void {
    let text = decoded
    if (text === '') return
    if (this.afterCarriageReturn) {
      this.afterCarriageReturn = false
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1)
      if (text === '') return
    }
    if (text.includes('\r')) {
      this.afterCarriageReturn = text.endsWith('\r')
      text = text.replace(/\r\n?/g, '\n')
    }
    let start = 0
    let end = text.indexOf('\n')
    if (end === -1) {
      this.partial.push(text)
      return
    }
    if (this.partial.length > 0) {
      this.partial.push(text.slice(0, end))
      this.line(this.partial.join(''), out)
      this.partial.length = 0
      start = end + 1
      end = text.indexOf('\n', start)
    }
    while (end !== -1) {
      this.line(text.slice(start, end), out)
      start = end + 1
      end = text.indexOf('\n', start)
    }
    if (start < text.length) this.partial.push(text.slice(start))
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.data !== undefined) out.push({ event: this.event, data: this.data })
      this.event = null
      this.data = undefined
      return
    }
    if (line.charCodeAt(0) === 0x3a) return // ':' starts a comment
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 0x20) value = value.slice(1)
    if (field === 'data') this.data = this.data === undefined ? value : `${this.data}\n${value}`
    else if (field === 'event') this.event = value
    // `id` and `retry` serve reconnecting EventSource clients; a model stream is never resumed.
  }
}
