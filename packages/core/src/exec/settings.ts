import type { ExecOptions, RuntimeOptions } from '../contract/exec-types.js'
import type { LoopSettings } from './context.js'

// The one place LoopSettings are assembled: a runtime's from its options, once; an exec's from
// its runtime's, under what the exec changes.

/** The settings every exec of a runtime starts from, with the documented defaults. */
export function runtimeSettings(options: RuntimeOptions): LoopSettings {
  const settings: LoopSettings = {
    toolExecution: options.toolExecution ?? 'sequential',
    maxToolConcurrency: options.maxToolConcurrency ?? Infinity,
    duplicateCalls: options.duplicateCalls ?? 'reject',
    breakerThreshold: options.breakerThreshold ?? 2,
    strictArguments: options.strictArguments ?? false,
    steering: options.steering ?? 'interrupt',
    resetToolChoice: options.resetToolChoice ?? true,
    stopAtTools: new Set(options.stopAtTools ?? []),
    hooks: options.hooks ?? {},
  }
  if (options.toolTimeoutMs !== undefined) settings.toolTimeoutMs = options.toolTimeoutMs
  if (options.maxRetries !== undefined) settings.maxRetries = options.maxRetries
  if (options.streamIdleTimeoutMs !== undefined) settings.streamIdleTimeoutMs = options.streamIdleTimeoutMs
  if (options.providerOptions !== undefined) settings.providerOptions = options.providerOptions
  if (options.think !== undefined) settings.think = options.think
  return settings
}

/**
 * An exec's settings: its runtime's, under `changes` (an owner's tool timeout, a batch's rules),
 * under the exec's own options. The runtime's object itself when nothing changes.
 */
export function execSettings(
  runtime: LoopSettings,
  options: ExecOptions,
  changes: Partial<LoopSettings> | undefined,
): LoopSettings {
  let settings = changes ? { ...runtime, ...changes } : runtime
  if (options.providerOptions)
    settings = { ...settings, providerOptions: { ...settings.providerOptions, ...options.providerOptions } }
  if (options.stopAtTools) settings = { ...settings, stopAtTools: new Set(options.stopAtTools) }
  if (options.think !== undefined) settings = { ...settings, think: options.think }
  return settings
}
