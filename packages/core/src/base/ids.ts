import { randomHex } from '../platform/node.js'

// Ids leave the process (events, receipts, web routes), so each carries 128 random bits: knowing
// one tells nothing about another (node:crypto, or Web Crypto in a browser).
const ID_BYTES = 16

/** `{kind}_{32 hex digits}`: 128 random bits, 37 characters for a call id (OpenAI allows 40). */
export const generateId = (kind: string): string => `${kind}_${randomHex(ID_BYTES)}`
