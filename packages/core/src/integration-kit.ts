// `@nestor/core/integration-kit`: what integration authors (provider adapters, agents, MCP, web,
// tracing, durable runs, evals) need beyond the main entry — the provider-neutral request and
// stream types, error and usage helpers, redaction, schema compilation, option rules and the
// markers packages outside core use. Applications do not need it. `@nestor/core/provider-kit` is
// its older name, kept in package.json as an alias of this same file.
export type {
  ToolLike,
  CacheScopeInfo,
  ReceiptStatus,
  ModelRequest,
  OutputSpec,
  ModelEvent,
  InjectedPrompt,
  NestorErrorLike,
  Capabilities,
  ModelInfo,
  ModelPrices,
  ModelPriceTier,
  UsageCost,
  ToolSpec,
  Validation,
  ToolSource,
  MethodReference,
} from './contract/types.js'
export type {
  PrepareTurnInfo,
  PrepareTurnChanges,
  ToolCallHookContext,
  BeforeToolCallOutcome,
  QueueMode,
  SteeringMode,
} from './contract/exec-types.js'
export type { BatchLane, BatchCallResult, BatchStop } from './contract/batch-types.js'
export type { MessageDelta, AgentEventType, EventBase, EventPayload } from './contract/event-types.js'
export { toolSource, offlineProvider, isOfflineProvider } from './contract/types.js'
export { agentProfile } from './contract/handoff-types.js'
export type { AgentProfile, HandoffAgent } from './contract/handoff-types.js'
export { generateId } from './base/ids.js'
export { invalidOption, messageOf } from './contract/errors.js'
export { emptyUsage, addUsage, costOf } from './contract/usage.js'
export { redactString, redactDeep } from './events/redact.js'
export { canonicalJson, callSignature } from './base/canonical.js'
export { compileSchema } from './schema/schema.js'
export type { CompiledSchema } from './schema/schema.js'
export { globMatch } from './tools/registry.js'
export { sleep } from './base/sleep.js'
// DNS-rebinding protection for servers on loopback (`serveMcp`'s HTTP transport, `@nestor/studio`).
export { hostGuard } from './base/host-guard.js'
export type { HostGuard, GuardedHeaders } from './base/host-guard.js'
// At most `width` works at once (the studio reads a thousand journal headers this way).
export { inPool } from './base/pool.js'
export { option, parseOptions, strictOptions } from './options/option-schema.js'
export type { OptionRule, OptionShape, OptionsSchema, SameKeys } from './options/option-schema.js'
export { DeltaGuard } from './events/delta-guard.js'
export { liveToolList } from './tools/live-tool-list.js'
export { boundedEvents } from './events/event-log.js'
export type { LiveToolList } from './tools/live-tool-list.js'
export { normalizeTools } from './tools/tool.js'
export { plainToolContent } from './tools/tool-content.js'
export type { PlainToolContent } from './tools/tool-content.js'
export type { ExecFrameInfo } from './contract/exec-types.js'
export { TOOL_CACHE_DEFAULTS } from './tools/tool-cache.js'
export { zod } from './base/zod-lazy.js'
// For session store authors (@nestor/sessions and third-party stores): the checks every store applies.
export {
  checkStoredMessages,
  parseStoredRow,
  checkForkCut,
  pageSize,
  checkKey,
  retentionMs,
  storeLimits,
} from './sessions/stored.js'
