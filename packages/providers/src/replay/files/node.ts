import { createHash } from 'node:crypto'

// What cassettes need of the runtime: files and SHA-256 (Node, Bun, Deno, Workers). The browser
// build of `@nestor/providers/testing` (bundle/browser/, scripts/bundle.mjs) takes ./web.ts instead.
export { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
export { join } from 'node:path'

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex')
