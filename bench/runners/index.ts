import type { Runner, RunnerFactory, Target } from './types.js'

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

/** Runners of the cold regime only (cold.ts): one first exec per process, tool scenarios. */
export const COLD_ONLY_SYSTEMS = ['nestor-mcp', 'nestor-json-root'] as const
export type RunnerName = SystemName | (typeof COLD_ONLY_SYSTEMS)[number]

// Importing a runner's module and creating the runner are two steps, so the cold regime can time
// the imports apart from the set-up (clients, runtimes, tools).
const factories: Record<RunnerName, () => Promise<RunnerFactory>> = {
  floor: async () => (await import('./floor.js')).createFloorRunner,
  nestor: async () => (await import('./nestor.js')).createNestorRunner,
  'nestor-json': async () => (await import('./nestor-json.js')).createNestorJsonRunner,
  'nestor-adapter': async () => (await import('./nestor-adapter.js')).createNestorAdapterRunner,
  'nestor+otel': async () => (await import('./nestor-otel.js')).createTracedNestorRunner,
  'ai-sdk': async () => (await import('./ai-sdk.js')).createAiSdkRunner,
  'pi-agent-core': async () => (await import('./pi.js')).createPiRunner,
  '@openai/agents': async () => (await import('./openai-agents.js')).createOpenAIAgentsRunner,
  'nestor-mcp': async () => (await import('./nestor-mcp.js')).createNestorMcpRunner,
  'nestor-json-root': async () => (await import('./nestor-json-root.js')).createNestorJsonRootRunner,
}

export const importRunner = (system: RunnerName): Promise<RunnerFactory> => factories[system]()
export const loadRunner = async (system: RunnerName, target: Target): Promise<Runner> =>
  (await importRunner(system))(target)
