import { randomFillSync } from 'node:crypto'

// Ids leave the process (events, receipts, web routes), so each carries 128 random bits: knowing
// one tells nothing about another. Random bytes are drawn a pool at a time, one call per 256 ids.
const ID_BYTES = 16
const pool = Buffer.alloc(ID_BYTES * 256)
let offset = pool.length

/** `{kind}_{32 hex digits}`: 128 random bits, 37 characters for a call id (OpenAI allows 40). */
export function generateId(kind: string): string {
  if (offset === pool.length) {
    randomFillSync(pool)
    offset = 0
  }
  const id = pool.toString('hex', offset, offset + ID_BYTES)
  offset += ID_BYTES
  return `${kind}_${id}`
}
