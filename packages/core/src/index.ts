// The main entry: what an application uses. What adapter authors need (request/event types,
// error and usage helpers, redaction) and the finer-grained types (hook payloads, event deltas,
// batch lanes, queue modes) are in `@nestor/core/integration-kit`; see docs/packaging.md.
export type {
  Message,
  HistoryMessage,
  UserMessage,
  AssistantMessage,
  ToolResultMessage,
  TextContent,
  ImageContent,
  FileContent,
  AudioContent,
  ResourceContent,
  ResourceLinkContent,
  ToolResultContent,
  ThinkingContent,
  ToolCall,
  Usage,
  UsageCost,
  ModelPrices,
  ModelPriceTier,
  ModelInfo,
  StopReason,
  JSONSchema,
  Tool,
  ToolContext,
  LogLevel,
  ToolOutput,
  CacheOptions,
  ToolControl,
  ControlDecision,
  ToolInput,
  ToolChoice,
  ApprovalPredicate,
  Provider,
  ErrorCode,
  ToolReceipt,
  ApprovalRequest,
  JsonValue,
  PreparePreview,
  ReceiptApproval,
  ApprovalDecision,
  ResumeDecisions,
  AskOptions,
  AskHandler,
  InputRequest,
  PendingInput,
  OutputSchema,
  OutputOf,
  ModelRequest,
} from './contract/types.js'
export type { RunState } from './contract/run-state-schema.js'
export type {
  ExecInput,
  ExecStatus,
  ExecResult,
  ExecStop,
  LoopHooks,
  RuntimeOptions,
  ExecOptions,
  ResumeOptions,
  RetentionOptions,
  OwnerDefaults,
  ToolList,
  ContextInfo,
  ContextOptions,
  ContextStrategy,
  Choices,
  ChoiceOutput,
  ExecOutputOf,
  ChoiceOf,
} from './contract/exec-types.js'
export type { ExecStats, ToolStats } from './contract/exec-stats-types.js'
export type { BatchCall, BatchOptions, BatchResult, ParallelBatchResult } from './contract/batch-types.js'
export type { AgentEvent, EventOf } from './contract/event-types.js'
export type {
  AgentProfile,
  Handoff,
  HandoffAgent,
  HandoffInfo,
  HandoffOptions,
  HandoffTarget,
  InputFilter,
} from './contract/handoff-types.js'
export { agentProfile } from './contract/handoff-types.js'
export { handoff, lastTurns } from './handoffs/handoff.js'
export { NestorError } from './contract/errors.js'
export type { CostBudgetFigures } from './contract/errors.js'
export type { InferArgs, SchemaInput } from './schema/schema.js'
export { defineTool } from './tools/tool.js'
export { defineGuardrail } from './guardrails/define.js'
export { guardrails } from './guardrails/index.js'
export type { ClassifierOptions } from './guardrails/classifier.js'
export type {
  AfterToolVerdict,
  BeforeToolVerdict,
  Guardrail,
  GuardrailContext,
  GuardrailKind,
  GuardrailOptions,
  GuardrailVerdictName,
  InputVerdict,
  OutputVerdict,
  PassOrTrip,
  ReceiptGuardrail,
  TextGuardrail,
  ToolGuardrail,
  TrippedGuardrail,
} from './contract/guardrail-types.js'
export { project } from './schema/project.js'
export { estimateTokens } from './context/estimate.js'
export type { DefineToolOptions } from './tools/tool.js'
export { ToolRegistry, registry } from './tools/registry.js'
export { suppliedResults } from './tools/supplied-results.js'
export type { SuppliedToolSpec } from './tools/supplied-results.js'
// The file-backed names: the browser build (scripts/bundle.mjs) takes files/web.ts, which fail saying why.
export { loadRegistry, fileJournal } from './files/node.js'
export { DeclaredRegistry } from './tools/declared-registry.js'
export type { DeclaredOwner } from './tools/declared-registry.js'
export { Runtime, exec } from './runtime/runtime.js'
export { ExecRun } from './exec/run.js'
export type { AttachedRun } from './runtime/run-registry.js'
export { currentExec } from './exec/frame.js'
export { memorySessions } from './sessions/memory.js'
export type {
  SessionStore,
  SessionOptions,
  SessionInfo,
  SessionPage,
  SessionLimits,
  SessionStoreOptions,
  SessionWrite,
  SessionLease,
} from './contract/session-types.js'
export { withProvider, withSecretsListener } from './exec/provider-scope.js'
export { RUN_STATE_VERSION } from './state/run-state.js'
export { memoryJournal } from './state/memory-journal.js'
export type { Journal, JournalEntry } from './contract/journal.js'
export type { ForkEdit, ForkOptions, ForkSource } from './contract/fork-types.js'
