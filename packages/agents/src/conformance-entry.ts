// `@nestor/agents/conformance`: the tool-loop conformance harness, for checking a provider or a model
// against Nestor's tool-calling contract. Applications building agents do not need it.
export { runToolLoopConformance, isLiveProvider, liveTestsEnabled, CONFORMANCE_MAX_TURNS } from './conformance.js'
export type { ConformanceOutcome, ConformanceOptions, ConformanceTarget } from './conformance.js'
export type { ConformanceFailureClass, ConformanceViolation, ToolCallObservation } from './conformance-classify.js'
export {
  conformanceTools,
  CONFORMANCE_PROMPT,
  CONFORMANCE_SYSTEM,
  CONFORMANCE_FIXTURE_ID,
  CONFORMANCE_TOOL_NAMES,
} from './conformance-tools.js'
