import { exact, includes, regex, schema } from './basic.js'
import { judge } from './judge.js'
import { toolCalls } from './tool-calls.js'

/** The built-in scorers. Any `{ name, score(case, result, ctx) }` object is a scorer too. */
export const scorers = { exact, includes, regex, schema, toolCalls, judge }
export type { ExpectedCall, ToolCallsOptions } from './tool-calls.js'
export type { JudgeOptions } from './judge.js'
export { JUDGE_SYSTEM } from './judge.js'
