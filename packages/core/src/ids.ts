import { randomBytes } from 'node:crypto'

// A random prefix per process plus a counter: unique, short, and cheap on the hot path.
const prefix = randomBytes(4).toString('hex')
let counter = 0
export const generateId = (kind: string): string => `${kind}_${prefix}${(counter++).toString(36)}`
