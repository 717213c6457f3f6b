// The main entry: what an application uses. What adapter authors need (request/event types,
// error and usage helpers, redaction) and the finer-grained types (hook payloads, event deltas,
// batch lanes, queue modes) are in `@nestor/core/provider-kit`; see docs/packaging.md.
export type {
  Message,
  UserMessage,
  AssistantMessage,
  ToolResultMessage,
  TextContent,
  ImageContent,
  FileContent,
  ThinkingContent,
  ToolCall,
  Usage,
  StopReason,
  JSONSchema,
  Tool,
  ToolContext,
  ToolOutput,
  CacheOptions,
  ToolInput,
  ToolChoice,
  ApprovalPredicate,
  Provider,
  ErrorCode,
  ToolReceipt,
  ApprovalRequest,
  ApprovalDecision,
  ResumeDecisions,
  RunState,
  ExecInput,
  ExecStatus,
  ExecResult,
  OutputSchema,
  OutputOf,
  LoopHooks,
  RuntimeOptions,
  ExecOptions,
  BatchCall,
  BatchOptions,
  BatchResult,
  ParallelBatchResult,
  AgentEvent,
  EventOf,
} from './contract/types.js'
export { NestorError } from './contract/errors.js'
export type { InferArgs, SchemaInput } from './schema/schema.js'
export { defineTool } from './tools/tool.js'
export type { DefineToolOptions } from './tools/tool.js'
export { ToolRegistry, registry } from './tools/registry.js'
export { Runtime, exec } from './runtime/runtime.js'
export { ExecRun } from './exec/run.js'
export type { AttachedRun, RetentionOptions } from './runtime/run-registry.js'
export { currentExec } from './exec/frame.js'
export { RUN_STATE_VERSION } from './state/run-state.js'
export { memoryJournal } from './state/journal.js'
export type { Journal, JournalEntry } from './state/journal.js'
export { fileJournal } from './state/file-journal.js'
