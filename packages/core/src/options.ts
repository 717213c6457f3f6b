import { invalidOption } from './errors.js'
import { assertStringList } from './registry.js'
import type { ExecOptions, RuntimeOptions } from './types.js'

const MAX_ITERATIONS = 10_000

export function checkIterations(name: string, value: unknown): void {
  if (value === undefined || value === Infinity) return
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_ITERATIONS) {
    throw invalidOption(name, `an integer in 1..${MAX_ITERATIONS}, or Infinity`, value)
  }
}

function checkPositiveInt(name: string, value: unknown): void {
  if (value === undefined) return
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidOption(name, 'a positive integer', value)
}

function checkNonNegative(name: string, value: unknown): void {
  if (value === undefined) return
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) throw invalidOption(name, 'a number >= 0', value)
}

function checkOneOf(name: string, value: unknown, allowed: readonly string[]): void {
  if (value !== undefined && !allowed.includes(value as string)) throw invalidOption(name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value)
}

/** Every RuntimeOptions rule, checked in the constructor: a bad runtime never makes a request. */
export function validateRuntimeOptions(o: RuntimeOptions): void {
  if (!o || typeof o !== 'object') throw invalidOption('options', 'an object', o)
  if (!o.provider || typeof o.provider.stream !== 'function') throw invalidOption('provider', 'a Provider with a stream() method', o.provider)
  if (typeof o.model !== 'string' || o.model === '') throw invalidOption('model', 'a non-empty model name', o.model)
  checkIterations('maxIterations', o.maxIterations)
  checkPositiveInt('maxDepth', o.maxDepth)
  checkPositiveInt('maxTotalIterations', o.maxTotalIterations)
  checkPositiveInt('breakerThreshold', o.breakerThreshold)
  checkPositiveInt('maxToolConcurrency', o.maxToolConcurrency)
  checkPositiveInt('maxTotalTokens', o.maxTotalTokens)
  checkNonNegative('toolTimeoutMs', o.toolTimeoutMs)
  checkNonNegative('maxRetries', o.maxRetries)
  checkNonNegative('deadlineMs', o.deadlineMs)
  checkNonNegative('streamIdleTimeoutMs', o.streamIdleTimeoutMs)
  checkOneOf('toolExecution', o.toolExecution, ['sequential', 'parallel'])
  checkOneOf('duplicateCalls', o.duplicateCalls, ['reject', 'allow'])
  checkOneOf('queueMode', o.queueMode, ['all', 'one'])
  checkOneOf('steering', o.steering, ['interrupt', 'after-turn'])
  assertStringList('stopAtTools', o.stopAtTools)
  if (o.secrets !== undefined && !(Array.isArray(o.secrets) && o.secrets.every((s) => typeof s === 'string'))) {
    throw invalidOption('secrets', 'an array of strings', o.secrets)
  }
}

export function validateExecOptions(o: ExecOptions): void {
  if (typeof o !== 'object' || o === null) throw invalidOption('options', 'an object', o)
  checkIterations('maxIterations', o.maxIterations)
  checkOneOf('toolset', o.toolset, ['all', 'none'])
  assertStringList('toolsAllow', o.toolsAllow)
  assertStringList('toolsDeny', o.toolsDeny)
  if (o.tools !== undefined && !Array.isArray(o.tools)) throw invalidOption('tools', 'an array of tools', o.tools)
  const choice = o.toolChoice
  if (
    choice !== undefined &&
    choice !== 'auto' &&
    choice !== 'required' &&
    choice !== 'none' &&
    !(typeof choice === 'object' && choice !== null && choice.type === 'function' && typeof choice.name === 'string')
  ) {
    throw invalidOption('toolChoice', "'auto', 'required', 'none' or { type: 'function', name }", choice)
  }
  if (o.model !== undefined && (typeof o.model !== 'string' || o.model === '')) throw invalidOption('model', 'a non-empty model name', o.model)
  if (o.output !== undefined && (typeof o.output !== 'object' || o.output === null)) throw invalidOption('output', 'a zod schema or a JSON Schema object', o.output)
  if (o.outputRetries !== undefined && (typeof o.outputRetries !== 'number' || !Number.isInteger(o.outputRetries) || o.outputRetries < 0 || o.outputRetries > 10)) {
    throw invalidOption('outputRetries', 'an integer in 0..10', o.outputRetries)
  }
  if (o.outputRetries !== undefined && o.output === undefined) throw invalidOption('outputRetries', 'to be given with output', o.outputRetries)
}
