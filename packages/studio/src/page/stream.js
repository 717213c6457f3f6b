// A run's events as Server-Sent Events, read with fetch (not EventSource, which drops event types
// it was not told of ahead): every frame reaches `onEvent`, whatever its type, in position order.
// A dropped connection reconnects after the last position seen, so nothing comes twice.

export function follow(execId, { onEvent, onEnd, onError }, after = 0) {
  let last = after
  let stopped = false
  const controller = new AbortController()

  async function read() {
    const response = await fetch(`api/runs/${encodeURIComponent(execId)}/events?lastEventId=${last}`, {
      signal: controller.signal,
    })
    if (!response.ok) {
      const body = await response.json().catch(() => ({}))
      throw new Error(body.error?.message ?? `HTTP ${response.status}`)
    }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return false
      buffer += value
      // Frames are cut by index and the rest kept once per chunk: a chunk may hold thousands.
      let from = 0
      let cut
      while ((cut = buffer.indexOf('\n\n', from)) >= 0) {
        const frame = parse(buffer.slice(from, cut))
        from = cut + 2
        if (frame.event === 'end') {
          onEnd(JSON.parse(frame.data))
          return true
        }
        if (frame.event === 'stream_error') throw new Error(JSON.parse(frame.data).message)
        if (frame.id === undefined || frame.data === undefined) continue
        const position = Number(frame.id)
        if (position <= last) continue
        last = position
        onEvent(JSON.parse(frame.data), position)
      }
      buffer = buffer.slice(from)
    }
  }

  void (async () => {
    for (let attempt = 0; !stopped && attempt < 5; attempt++) {
      try {
        if (await read()) return
      } catch (error) {
        if (stopped) return
        onError(error)
        return
      }
    }
  })()
  return () => {
    stopped = true
    controller.abort()
  }
}

function parse(text) {
  const frame = {}
  for (const line of text.split('\n')) {
    const at = line.indexOf(': ')
    if (line.startsWith(':') || at < 0) continue
    const name = line.slice(0, at)
    const value = line.slice(at + 2)
    frame[name] = name === 'data' && frame.data !== undefined ? `${frame.data}\n${value}` : value
  }
  return frame
}
