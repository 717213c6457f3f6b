import type { Runner, Target } from './types.js'

// Systems in the order they are interleaved. Each loads by dynamic import, so a peer that cannot
// load on this Node version is reported as unavailable instead of failing the whole run.
export const SYSTEMS = [
  'floor',
  'nestor',
  'nestor-json',
  'nestor-adapter',
  'nestor+otel',
  'ai-sdk',
  'pi-agent-core',
  '@openai/agents',
] as const
export type SystemName = (typeof SYSTEMS)[number]

/** Rows that explain another row rather than compete: run only when BENCH_SYSTEMS names them. */
export const DIAGNOSTIC_SYSTEMS: readonly SystemName[] = ['nestor-adapter']

const loaders: Record<SystemName, (target: Target) => Promise<Runner>> = {
  floor: async (t) => (await import('./floor.js')).createFloorRunner(t),
  nestor: async (t) => (await import('./nestor.js')).createNestorRunner(t),
  'nestor-json': async (t) => (await import('./nestor.js')).createNestorRunner(t, undefined, 'json'),
  'nestor-adapter': async (t) => (await import('./nestor-adapter.js')).createNestorAdapterRunner(t),
  'nestor+otel': async (t) => (await import('./nestor-otel.js')).createTracedNestorRunner(t),
  'ai-sdk': async (t) => (await import('./ai-sdk.js')).createAiSdkRunner(t),
  'pi-agent-core': async (t) => (await import('./pi.js')).createPiRunner(t),
  '@openai/agents': async (t) => (await import('./openai-agents.js')).createOpenAIAgentsRunner(t),
}

export const loadRunner = (system: SystemName, target: Target): Promise<Runner> => loaders[system](target)
