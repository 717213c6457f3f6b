import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (pkg: string, entry = 'index') =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url))

// Tests run against the TypeScript sources, not dist/, so a test run never sees stale builds.
export default defineConfig({
  resolve: {
    // Subpath entries first: an alias also matches the subpaths of its name.
    alias: {
      // NESTOR_OPENAI_SDK points at another copy of the openai SDK (CI runs the provider tests on v7).
      ...(process.env['NESTOR_OPENAI_SDK'] ? { openai: process.env['NESTOR_OPENAI_SDK'] } : {}),
      '@nestor/core/provider-kit': src('core', 'provider-kit'),
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
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary.ts'],
  },
})
