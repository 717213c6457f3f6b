import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url))

// Tests run against the TypeScript sources, not dist/, so a test run never sees stale builds.
export default defineConfig({
  resolve: {
    alias: {
      '@nestor/core': src('core'),
      '@nestor/providers': src('providers'),
      '@nestor/agents': src('agents'),
      '@nestor/web': src('web'),
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/*/src/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './test/support/plain-summary.ts'],
  },
})
