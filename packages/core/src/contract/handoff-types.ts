// The public types of handoffs: what an exec may pass its conversation to (docs/handoffs.md).

import type { Message } from './message-types.js'
import type { OutputSchema, Provider, ToolInput } from './types.js'

/**
 * The protocol of anything a conversation can be handed to: `@nestor/agents`' `Agent` carries it,
 * so core knows agents only through this symbol (as it knows tool sources through `toolSource`).
 */
export const agentProfile: unique symbol = Symbol.for('nestor.agentProfile')

/** Who an agent is and what it answers with once the conversation is handed to it. */
export type AgentProfile = {
  /** Its name: the model sees `transfer_to_<name>`, results and events say it. */
  name: string
  description?: string
  /** Its system prompt. */
  instructions?: string
  tools: ToolInput[]
  /** Its provider and model; without them the exec keeps the ones it runs with. */
  provider?: Provider
  model?: string
  /** Its typed output: the final answer must match it. */
  output?: OutputSchema
  /** Where it may hand the conversation on to. */
  handoffs?: readonly HandoffTarget[]
}

export type HandoffAgent = { [agentProfile](): AgentProfile }

/** What `onHandoff` is told when the model takes a handoff, before the target answers. */
export type HandoffInfo = {
  /** The agent handing over (undefined for an exec that runs as no named agent). */
  from?: string
  to: string
  toolCallId: string
  execId: string
}

/** Shapes the history the target receives; must keep every tool call answered (`lastTurns(n)`). */
export type InputFilter = (history: Message[]) => Message[]

export type HandoffOptions = {
  /** Default: the agent's name. */
  name?: string
  /** What the model reads on `transfer_to_<name>`. Default: from the agent's description. */
  description?: string
  /** Default: the whole history. */
  inputFilter?: InputFilter
  /** Runs once the handoff is taken, before the target's first model call; a throw fails the exec. */
  onHandoff?: (info: HandoffInfo) => void | Promise<void>
}

/** A target with its options, made by `handoff(agent, options)`. */
export type Handoff = HandoffOptions & { readonly kind: 'handoff'; readonly agent: HandoffAgent }

/** An entry of `exec({ handoffs })` or `Agent.handoffs`: an agent, or `handoff(agent, options)`. */
export type HandoffTarget = HandoffAgent | Handoff
