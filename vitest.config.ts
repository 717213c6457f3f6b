import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (pkg: string, entry = 'index') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url))

// Tests run against the TypeScript sources, not dist/, so a test run never sees stale builds.
export default defineConfig({
  plugins: [
    {
      // A package's `#peers` import is its Node variant's source (package.json maps it to bundle/).
      name: 'nestor-peers-source',
      enforce: 'pre',
      resolveId(id, importer) {
        const pkg = importer && /[/\\]packages[/\\]([^/\\]+)[/\\]src[/\\]/.exec(importer)?.[1]
        return id === '#peers' && pkg ? src(pkg, 'peers/node') : undefined
      },
    },
  ],
  resolve: {
    // Subpath entries first: an alias also matches the subpaths of its name.
    alias: {
      // NESTOR_OPENAI_SDK points at another copy of the openai SDK (CI runs the provider tests on v7).
      ...(process.env['NESTOR_OPENAI_SDK'] ? { openai: process.env['NESTOR_OPENAI_SDK'] } : {}),
      '@nestor/core/integration-kit': src('core', 'integration-kit'),
      // The older name of the same entry.
      '@nestor/core/provider-kit': src('core', 'integration-kit'),
      '@nestor/providers/openai-compatible': src('providers', 'openai-compatible'),
      '@nestor/providers/openai': src('providers', 'openai'),
      '@nestor/providers/anthropic': src('providers', 'anthropic'),
      '@nestor/providers/gemini': src('providers', 'gemini'),
      '@nestor/providers/testing': src('providers', 'testing'),
      '@nestor/providers/provider-kit': src('providers', 'provider-kit'),
      '@nestor/providers/bedrock': src('providers', 'bedrock/index'),
      '@nestor/providers/ai-sdk': src('providers', 'ai-sdk/index'),
      '@nestor/providers/fallback': src('providers', 'fallback/index'),
      '@nestor/agents/conformance': src('agents', 'conformance-entry'),
      '@nestor/sessions/sqlite': src('sessions', 'sqlite'),
      '@nestor/sessions/postgres': src('sessions', 'postgres'),
      '@nestor/sessions/conformance': src('sessions', 'conformance'),
      '@nestor/core': src('core'),
      '@nestor/providers': src('providers'),
      '@nestor/agents': src('agents'),
      '@nestor/otel': src('otel'),
      '@nestor/mcp': src('mcp'),
      '@nestor/web': src('web'),
      '@nestor/dbos': src('dbos'),
      '@nestor/evals': src('evals'),
      '@nestor/sessions': src('sessions'),
      '@nestor/tools': src('tools'),
      '@nestor/studio': src('studio'),
    },
  },
  test: {
    // test/runtimes (bundlers, Workers, browsers, Bun, Deno) runs once per CI run, after the Node
    // runs (.ci/run sets NESTOR_RUNTIMES): it checks the packed packages, the same on every Node.
    ...(process.env['NESTOR_RUNTIMES']
      ? { include: ['test/runtimes/**/*.test.ts'] }
      : {
          include: ['test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
          exclude: ['test/runtimes/**', '**/node_modules/**'],
        }),
    testTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary.ts'],
  },
})
