#!/usr/bin/env node
// The `nestor-eval` command (see cli.ts; docs/evals.md in the repository).
import { main } from './cli.js'

process.exitCode = await main(process.argv.slice(2), {
  stdout: { write: (t) => void process.stdout.write(t), isTTY: Boolean(process.stdout.isTTY) },
  stderr: { write: (t) => void process.stderr.write(t), isTTY: Boolean(process.stderr.isTTY) },
  cwd: process.cwd(),
})
