export type { RunSource } from './source.js'
export { toSSE, toResponse, sseFrame, SSE_HEADERS } from './sse.js'
export type { SSEOptions } from './sse.js'
export { pipeToNodeResponse, sendWebResponse, toNodeListener } from './node.js'
export type { NodePipeOptions } from './node.js'
export { lastEventIdOf, attachOrExplain, resumeResponse } from './resume.js'
export { ApprovalGate } from './approval-gate.js'
export type { ApprovalGateOptions } from './approval-gate.js'
export { handleControl, CONTROL_ACTIONS } from './control.js'
export type { ControlAction, ControlTarget } from './control.js'
export { runRoutes } from './routes.js'
export type { RunRoutesOptions } from './routes.js'
export { chatRoutes } from './chat-routes.js'
export type { ChatRoutesOptions, ChatRequest } from './chat-routes.js'
export { toStoredUIMessages } from './stored-chat.js'
export type { StoredUIMessage, StoredUIPart } from './stored-chat.js'
export { recordOwner } from './access.js'
export type { Authorize, OwnerOf, RunAccess, RunAction } from './access.js'
export { errorResponse, jsonBody } from './http-errors.js'
export { safeJson } from './safe-json.js'
export { toUIMessageStream, toUIMessageStreamResponse, UI_MESSAGE_STREAM_HEADERS } from './ui-stream.js'
export type { UIStreamOptions } from './ui-stream.js'
export { UIChunkMapper } from './ui-chunks.js'
export type {
  UIChunk,
  ExecPartData,
  ApprovalPartData,
  AgentPartData,
  GuardrailPartData,
  InputPartData,
} from './ui-chunks.js'
