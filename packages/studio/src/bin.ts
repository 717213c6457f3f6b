#!/usr/bin/env node
// The `nestor-studio` command (see cli.ts; docs/studio.md in the repository).
import { startCli } from './cli.js'

const running = await startCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
})
if (!running) process.exitCode = 2
else
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void running.close().then(() => process.exit(0)))
