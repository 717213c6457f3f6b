import type { Reporter, SerializedError, TestModule } from 'vitest/node'

/**
 * Prints plain closing lines after vitest's own summary, so CI logs state the outcome in a form
 * any tool can read, at the very end where a truncated log still shows it: each unhandled error
 * (name, message, the top of its stack: vitest prints these far above, among the passing files),
 * then `vitest: N passed, N failed, N skipped`.
 */
export default class PlainSummary implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === 'passed') passed++
        else if (state === 'failed') failed++
        else skipped++
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++
    }
    for (const error of unhandledErrors) process.stdout.write(`\n${describe(error)}\n`)
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`)
  }
}

function describe(error: SerializedError): string {
  const stack = (error.stack ?? '').split('\n').slice(1, 6).join('\n')
  return `unhandled error: ${error.name ?? 'Error'}: ${error.message}\n${stack}`
}
