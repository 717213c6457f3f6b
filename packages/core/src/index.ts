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
} from './types.js'
export { NestorError } from './errors.js'
export type { InferArgs, SchemaInput } from './schema.js'
export { defineTool } from './tool.js'
export type { DefineToolOptions } from './tool.js'
export { ToolRegistry, registry } from './registry.js'
export { Runtime, exec } from './runtime.js'
export { ExecRun } from './run.js'
export type { AttachedRun, RetentionOptions } from './run-registry.js'
export { currentExec } from './frame.js'
export { RUN_STATE_VERSION } from './run-state.js'
export { memoryJournal } from './journal.js'
export type { Journal, JournalEntry } from './journal.js'
export { fileJournal } from './file-journal.js'
export type { ForkEdit, ForkOptions, ForkSource } from './fork.js'
