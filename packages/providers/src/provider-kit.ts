// `@nestor/providers/provider-kit`: the building blocks the bundled adapters share (the assistant
// message builder and the retrying stream), for authors of further adapters. Applications do not need it.
export { AssistantBuilder, parseArguments } from './shared/assistant-builder.js'
export type { StreamParser, EmitEvent } from './shared/stream-parser.js'
export { streamWithRetries } from './shared/retry-stream.js'
export { retryAfterFromHeaders, isRetryableStatus } from './shared/failures.js'
export type { RetryStreamOptions, ClassifiedError } from './shared/retry-stream.js'
export { importPeer } from './shared/import-peer.js'
export { DEFAULT_STREAM_IDLE_TIMEOUT_MS } from './shared/retrying-provider.js'
