import { createHash, createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import * as web from '../../packages/core/src/platform/web.js'

// A browser bundle of core computes journal keys, state digests and signatures with plain
// JavaScript (packages/core/src/platform/web.ts): they must be node:crypto's, byte for byte, so a
// state paused in a page resumes on a server and the other way round; its ids stay 128 random bits.

const texts = [
  '',
  'abc',
  'run_1\0exec#0:tool:call_1',
  'é, 日本, 🙂 and a NUL \0',
  'x'.repeat(55),
  'x'.repeat(56),
  'y'.repeat(64),
  'z'.repeat(1000),
]

describe('the browser platform', () => {
  it('hashes every text as node:crypto does: block edges, multi-byte characters, long inputs', () => {
    for (const text of texts) expect(web.sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'))
  })

  it('signs as node:crypto HMAC-SHA256 does, with short, long (hashed first) and Unicode secrets', () => {
    for (const secret of ['k', 's'.repeat(64), 's'.repeat(65), 'ключ🙂'])
      for (const text of texts)
        expect(web.hmacSha256Hex(secret, text)).toBe(createHmac('sha256', secret).update(text).digest('hex'))
  })

  it('compares digests: the same hex (any case) matches, another or a malformed one does not', () => {
    const mac = web.hmacSha256Hex('k', 'body')
    expect(web.sameDigest(mac, mac)).toBe(true)
    expect(web.sameDigest(mac.toUpperCase(), mac)).toBe(true)
    expect(web.sameDigest(web.hmacSha256Hex('k2', 'body'), mac)).toBe(false)
    expect(web.sameDigest(mac.slice(0, -2), mac)).toBe(false)
    expect(web.sameDigest('', '')).toBe(false)
  })

  it('draws ids and state ids from random bytes: 32 hex digits, a v4 UUID, never twice the same', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => web.randomHex(16)))
    expect(ids.size).toBe(1000)
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/)
    expect(web.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  it('reads the bytes of a base64 image header, also cut mid-quad as the estimate cuts it', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString('base64')
    expect([...web.base64Bytes(png)]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
    expect([...web.base64Bytes(`${png}Q`)]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
    expect([...web.base64Bytes('!!!!')]).toEqual([])
  })
})
