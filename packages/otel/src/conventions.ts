// Attribute names and values of the OpenTelemetry GenAI semantic conventions. The GenAI ones are
// still "incubating", and OpenTelemetry asks instrumentations to copy incubating names rather than
// import them at run time (they may change in a minor release): a test checks each copy against
// @opentelemetry/semantic-conventions, so a rename there fails our suite instead of our users'.

export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name'
export const ATTR_GEN_AI_PROVIDER_NAME = 'gen_ai.provider.name'
export const ATTR_GEN_AI_REQUEST_MODEL = 'gen_ai.request.model'
export const ATTR_GEN_AI_RESPONSE_MODEL = 'gen_ai.response.model'
export const ATTR_GEN_AI_RESPONSE_ID = 'gen_ai.response.id'
export const ATTR_GEN_AI_RESPONSE_FINISH_REASONS = 'gen_ai.response.finish_reasons'
export const ATTR_GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens'
export const ATTR_GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens'
export const ATTR_GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS = 'gen_ai.usage.cache_read.input_tokens'
export const ATTR_GEN_AI_USAGE_CACHE_CREATION_INPUT_TOKENS = 'gen_ai.usage.cache_creation.input_tokens'
export const ATTR_GEN_AI_AGENT_NAME = 'gen_ai.agent.name'
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name'
export const ATTR_GEN_AI_TOOL_TYPE = 'gen_ai.tool.type'
export const ATTR_GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id'
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments'
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result'
export const ATTR_GEN_AI_INPUT_MESSAGES = 'gen_ai.input.messages'
export const ATTR_GEN_AI_OUTPUT_MESSAGES = 'gen_ai.output.messages'
/** Stable (not incubating). */
export const ATTR_ERROR_TYPE = 'error.type'

export const GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT = 'invoke_agent'
export const GEN_AI_OPERATION_NAME_VALUE_CHAT = 'chat'
export const GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL = 'execute_tool'
/**
 * `gen_ai.tool.type` of a tool the application runs on the model's request: the conventions'
 * `function` (an example value there, with no published constant to check the copy against).
 */
export const TOOL_TYPE_VALUE_FUNCTION = 'function'

/** Nestor provider names whose well-known convention value differs from the name. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  gemini: 'gcp.gemini',
}

// Nestor's own attributes, under its own namespace as the conventions ask.
export const ATTR_NESTOR_EXEC_ID = 'nestor.exec.id'
export const ATTR_NESTOR_PARENT_EXEC_ID = 'nestor.parent_exec.id'
export const ATTR_NESTOR_DEPTH = 'nestor.depth'
/** On an agent's span that handed the conversation over: the target (docs/handoffs.md). */
export const ATTR_NESTOR_HANDOFF_TO = 'nestor.handoff.to'
/** On a handoff target's span: the agent that handed over. */
export const ATTR_NESTOR_HANDOFF_FROM = 'nestor.handoff.from'
export const ATTR_NESTOR_EXEC_STATUS = 'nestor.exec.status'
export const ATTR_NESTOR_ITERATIONS = 'nestor.exec.iterations'
export const ATTR_NESTOR_ITERATION = 'nestor.turn.iteration'
export const ATTR_NESTOR_RECEIPT_STATUS = 'nestor.receipt.status'
export const ATTR_NESTOR_TOOL_ATTEMPTS = 'nestor.tool.attempts'
export const ATTR_NESTOR_TOOL_CACHED = 'nestor.tool.cached'
/**
 * US dollars (docs/cost.md): the conventions have no cost attribute, so it is Nestor's. On a chat
 * span the turn's; on an agent span the exec's own turns, and `total_cost_usd` its whole tree.
 */
export const ATTR_NESTOR_COST_USD = 'nestor.usage.cost_usd'
export const ATTR_NESTOR_TOTAL_COST_USD = 'nestor.usage.total_cost_usd'
/** The step came from a journal (docs/durability.md): no model call, or no tool body, behind this span. */
export const ATTR_NESTOR_REPLAYED = 'nestor.replayed'
/** The step is a fork's edit (docs/evals.md): made up, not recorded; no model call or tool body behind it. */
export const ATTR_NESTOR_EDITED = 'nestor.edited'
/** A question a tool asked (ctx.ask, docs/asking.md): its id, and (with captureContent) its text. */
export const ATTR_NESTOR_INPUT_ID = 'nestor.input.id'
export const ATTR_NESTOR_INPUT_QUESTION = 'nestor.input.question'
/** A guardrail's check (docs/guardrails.md): a `nestor.guardrail` span event with these. */
export const ATTR_NESTOR_GUARDRAIL_NAME = 'nestor.guardrail.name'
export const ATTR_NESTOR_GUARDRAIL_KIND = 'nestor.guardrail.kind'
export const ATTR_NESTOR_GUARDRAIL_VERDICT = 'nestor.guardrail.verdict'
export const ATTR_NESTOR_GUARDRAIL_REASON = 'nestor.guardrail.reason'
export const ATTR_NESTOR_GUARDRAIL_PHASE = 'nestor.guardrail.phase'
export const ATTR_NESTOR_GUARDRAIL_DURATION_MS = 'nestor.guardrail.duration_ms'
