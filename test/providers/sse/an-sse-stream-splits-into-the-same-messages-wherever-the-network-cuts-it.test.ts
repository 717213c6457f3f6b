import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SseSplitter, type SseMessage } from '../../../packages/providers/src/shared/sse-splitter.js'

const split = (bytes: Uint8Array, cuts: number[]): SseMessage[] => {
  const splitter = new SseSplitter()
  const out: SseMessage[] = []
  let from = 0
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    out.push(...splitter.push(bytes.subarray(from, cut)))
    from = cut
  }
  out.push(...splitter.push(bytes.subarray(from)), ...splitter.end())
  return out
}

describe('the SSE splitter', () => {
  const wire =
    ': a comment line\n' +
    'data: {"a":1}\n\n' +
    'event: response.output_text.delta\r\ndata: {"t":"Grüße 東京 🌦️"}\r\n\r\n' +
    'data: first line\rdata:second, no space\r\r' +
    'id: 7\nretry: 100\ndata\n\n' +
    'event: only-a-name\n\n' +
    'data:  two spaces keep one\n\n' +
    'data: [DONE]\n\n' +
    'data: cut off before its blank line'
  const expected: SseMessage[] = [
    { event: null, data: '{"a":1}' },
    { event: 'response.output_text.delta', data: '{"t":"Grüße 東京 🌦️"}' },
    { event: null, data: 'first line\nsecond, no space' },
    { event: null, data: '' },
    { event: null, data: ' two spaces keep one' },
    { event: null, data: '[DONE]' },
  ]
  const bytes = new TextEncoder().encode(wire)

  it('reads \\n, \\r\\n and \\r line ends, comments, multi-line data and names, and drops an event cut off', () => {
    expect(split(bytes, [])).toEqual(expected)
  })

  it('gives the same messages when the bytes arrive cut anywhere, even inside a character or a \\r\\n', () => {
    for (let cut = 1; cut < bytes.length; cut++) expect(split(bytes, [cut])).toEqual(expected)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 60 }), (cuts) => {
        expect(split(bytes, cuts)).toEqual(expected)
      }),
    )
  })

  it('joins a line that arrives over many reads', () => {
    const long = 'x'.repeat(100_000)
    const body = new TextEncoder().encode(`data: ${long}\n\n`)
    const cuts = Array.from({ length: 999 }, (_, i) => (i + 1) * 100)
    expect(split(body, cuts)).toEqual([{ event: null, data: long }])
  })
})
