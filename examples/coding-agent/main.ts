// An agent that finds and fixes a failing test in a scratch repository, asking before each edit
// and each command (docs/tools.md):
//   node examples/dist/coding-agent/main.js                     offline: replays the committed cassette
//   … --provider openai|anthropic|gemini|ollama [--model M]     live, with your key or server
//   --yes / --no                                                approve / reject without asking
//   --record-cassette [--no]                                    re-record the cassette from the scripted model
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Runtime, type Provider } from '@nestor/core'
import { replay } from '@nestor/providers'
import { fileTools, shellTool } from '@nestor/tools'
import { liveProvider, parseArgs, repoRoot } from '../demo/live-provider.js'
import { writeScratchRepo } from './scratch-repo.js'
import { codingModel } from './scripted-model.js'
import { approver, render, type Sink } from './terminal.js'

export const TASK =
  'A test fails in this repository. Find the cause, fix the code (not the test) and show that the tests pass.'
const SYSTEM =
  'You are a careful coding agent working in a repository. Run its tests with the shell tool (node test/slugify.test.js), read the code before changing it, make the smallest fix with edit_file, then run the tests again.'
export const cassetteDir = (): string => join(repoRoot(), 'test', 'fixtures', 'cassettes', 'coding-agent')

export type CodingAgentIO = {
  write: Sink
  /** Approvals are asked y/N. Default: stdin and stdout are terminals. */
  interactive?: boolean
  /** An empty directory for the scratch repository. Default: a new one under the OS temp dir. */
  repo?: string
}

export async function main(argv: string[], io: CodingAgentIO = defaultIO()): Promise<number> {
  const args = parseArgs(argv)
  const choice = args.get('provider')
  const live = typeof choice === 'string' && choice !== 'replay'
  let target: { provider: Provider; model: string }
  if (args.has('record-cassette'))
    target = {
      provider: replay({ provider: codingModel(), dir: cassetteDir(), mode: 'record' }),
      model: 'scripted-coder',
    }
  else if (live) {
    const found = liveProvider(
      choice,
      typeof args.get('model') === 'string' ? (args.get('model') as string) : undefined,
    )
    if (typeof found === 'string') {
      io.write(`coding-agent: ${found}\n`)
      return 2
    }
    target = found
  } else target = { provider: replay({ dir: cassetteDir(), mode: 'strict' }), model: 'scripted-coder' }

  const repo = io.repo ?? mkdtempSync(join(tmpdir(), 'nestor-coding-agent-'))
  writeScratchRepo(repo)
  const fixed = args.has('yes') ? true : args.has('no') ? false : undefined
  const runtime = new Runtime({
    provider: target.provider,
    model: target.model,
    system: SYSTEM,
    maxIterations: 16,
    // The tools answer from the files as they are now: running the tests again after an edit is
    // a new question, not a repeat (the default rejects a call identical to an earlier success).
    duplicateCalls: 'allow',
    approve: approver(io.write, io.interactive ?? false, fixed),
  })
  runtime.on('*', (event) => render(io.write, event))
  io.write(
    `nestor coding agent — ${live ? `${target.provider.name} · ${target.model}` : 'offline replay of test/fixtures/cassettes/coding-agent'}\nrepository: ${repo}\n> ${TASK}\n\n`,
  )
  const tools = [...fileTools({ root: repo }), shellTool({ cwd: repo, timeoutMs: 60_000 })]
  const result = await runtime.exec(TASK, { tools })
  io.write(`\n${result.status}${result.error ? `: ${result.error.message}` : ''}\n`)
  return result.status === 'completed' ? 0 : 1
}

function defaultIO(): CodingAgentIO {
  return {
    write: (text) => void process.stdout.write(text),
    interactive: Boolean(process.stdout.isTTY && process.stdin.isTTY),
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code
  })
}
