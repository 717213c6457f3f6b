// The main entry: agents and their tools. The conformance harness is `@nestor/agents/conformance`.
export { Agent } from './agent.js'
export type { AgentOptions } from './agent.js'
export { tool } from './decorator.js'
// Handoffs live in core (exec options take them); re-exported beside the Agent they target.
export { handoff, lastTurns } from '@nestor/core'
export type { HandoffOptions, HandoffTarget } from '@nestor/core'
export { defineAgentTools } from './define-agent-tools.js'
export type { AgentToolDeclarations } from './define-agent-tools.js'
export { defaultAsToolParameters } from './as-tool.js'
export type { AsToolOptions, AsToolDefaultSchema, AgentToolDetails } from './as-tool.js'
export type { AgentToolOptions, MethodArgs, ToolMethod } from './tool-options.js'
