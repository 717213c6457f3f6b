// Handoffs: an exec passes its conversation to another agent, which answers in its place
// (docs/handoffs.md). The loop meets them at two points (pass.ts), the runtime at open and resume (open.ts).
export { handoff, lastTurns } from './handoff.js'
export { attachHandoffs, openHandoffs, resumeHandoffs, resumedTools } from './open.js'
export { isTransferTool } from './plan.js'
