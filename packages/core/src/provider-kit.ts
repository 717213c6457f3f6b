// `@nestor/core/provider-kit`: what adapter and integration authors need beyond the main entry —
// the provider-neutral request and stream types, error and usage helpers, redaction, schema
// compilation and the markers packages outside core use. Applications do not need it.
export type {
  ToolLike,
  CacheScopeInfo,
  ReceiptStatus,
  PrepareTurnInfo,
  PrepareTurnChanges,
  ToolCallHookContext,
  BeforeToolCallOutcome,
  QueueMode,
  SteeringMode,
  BatchLane,
  BatchCallResult,
  MessageDelta,
  AgentEventType,
  ModelRequest,
  OutputSpec,
  ModelEvent,
  NestorErrorLike,
  Capabilities,
  ToolSpec,
  Validation,
  ToolSource,
  MethodReference,
  EventBase,
  EventPayload,
} from './types.js'
export { toolSource, offlineProvider, isOfflineProvider } from './types.js'
export { generateId } from './ids.js'
export { invalidOption, messageOf } from './errors.js'
export { emptyUsage, addUsage } from './usage.js'
export { redactString, redactDeep } from './redact.js'
export { canonicalJson, callSignature } from './canonical.js'
export { compileSchema } from './schema.js'
export type { CompiledSchema } from './schema.js'
export { globMatch } from './registry.js'
export { sleep } from './sleep.js'
export { option, parseOptions, strictOptions } from './option-schema.js'
export type { OptionRule, OptionShape, OptionsSchema, SameKeys } from './option-schema.js'
export { DeltaGuard } from './delta-guard.js'
export { liveToolList } from './live-tools.js'
export { boundedEvents } from './event-log.js'
export type { LiveToolList } from './live-tools.js'
export { normalizeTools } from './tool.js'
export { plainToolContent } from './tool-content.js'
export type { PlainToolContent } from './tool-content.js'
export type { ExecFrameInfo } from './frame.js'
export { TOOL_CACHE_DEFAULTS } from './tool-cache.js'
export { zod } from './zod-lazy.js'
