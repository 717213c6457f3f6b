export { evaluate } from './evaluate.js'
export { scorers, JUDGE_SYSTEM } from './scorers/index.js'
export type { ExpectedCall, ToolCallsOptions, JudgeOptions } from './scorers/index.js'
export { flattenCalls } from './scorers/tool-calls.js'
export { loadCases, caseId } from './data.js'
export { readBaseline } from './baseline.js'
export { baselineOf, toJsonReport, writeJsonReport } from './report-json.js'
export { toHtmlReport, writeHtmlReport } from './report-html.js'
export { defineEval } from './define.js'
export type { EvalDefinition } from './define.js'
export type { ExecNode, ToolNode } from './tree.js'
export type {
  EvalCase,
  TaskContext,
  Task,
  ScoreResult,
  ScoreContext,
  Scorer,
  Threshold,
  CassetteMode,
  CassetteOptions,
  EvaluateOptions,
  CaseStatus,
  Spread,
  TrialReport,
  CaseReport,
  ScorerSummary,
  ThresholdCheck,
  Regression,
  BaselineDiff,
  EvalReport,
} from './types.js'
export { main as cli } from './cli.js'
export type { CliIO } from './cli.js'
