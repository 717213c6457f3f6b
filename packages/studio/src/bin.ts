#!/usr/bin/env node
// The `nestor-studio` command (see cli.ts; docs/studio.md in the repository).
import { startCli } from './cli.js'

const running = await startCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
})
if (typeof running === 'number') process.exitCode = running
else
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void running.close().then(() => process.exit(0)))
