export { fallback } from './fallback.js'
export type { FallbackEntry, FallbackOptions, FallbackOn } from './fallback.js'
