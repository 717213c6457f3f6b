import { describe, expect, it } from 'vitest'
import { estimateTokens, type Message } from '@nestor/core'

/** The first bytes of a PNG of the given size (signature and IHDR): enough for its header. */
function png(width: number, height: number): string {
  const bytes = Buffer.alloc(33)
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes, 0)
  bytes.writeUInt32BE(13, 8)
  bytes.write('IHDR', 12, 'ascii')
  bytes.writeUInt32BE(width, 16)
  bytes.writeUInt32BE(height, 20)
  return bytes.toString('base64')
}

const withImage = (data: string): Message[] => [
  { role: 'user', content: [{ type: 'image', data, mimeType: 'image/png' }] },
]

describe('the request estimate', () => {
  it('counts about four characters a token, so a 40 kB tool result weighs ~10k tokens', () => {
    const history: Message[] = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'big.txt' } }],
        stopReason: 'toolUse',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        provider: 'p',
        model: 'm',
      },
      {
        role: 'toolResult',
        toolCallId: 'c1',
        toolName: 'read',
        content: [{ type: 'text', text: 'x'.repeat(40_000) }],
        isError: false,
      },
    ]
    const tokens = estimateTokens(history)
    expect(tokens).toBeGreaterThan(10_000)
    expect(tokens).toBeLessThan(10_100)
  })

  it('counts an image by its pixels, fitted into 1568 px, whatever its bytes', () => {
    expect(estimateTokens(withImage(png(1000, 750)))).toBe(4 + 1000)
    // 3136 × 3136 is fitted into 1568 × 1568: 1568² / 750 = 3279 tokens, not its megabytes.
    expect(estimateTokens(withImage(png(3136, 3136)))).toBe(4 + Math.ceil((1568 * 1568) / 750))
    // An image whose size cannot be read counts as a large one.
    expect(estimateTokens(withImage(Buffer.from('not an image').toString('base64')))).toBe(4 + 1600)
  })

  it('counts the system prompt and the tool specs sent with every request', () => {
    const bare = estimateTokens([{ role: 'user', content: 'hi' }])
    const full = estimateTokens([{ role: 'user', content: 'hi' }], {
      system: 's'.repeat(400),
      tools: [{ name: 'read', description: 'd'.repeat(200), parameters: { type: 'object' } }],
    })
    expect(full - bare).toBeGreaterThan(150)
  })
})
