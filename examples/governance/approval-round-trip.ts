// An approval round trip across processes: this process runs until a call needs approval, stores
// the paused state as JSON, and a second `node` process resumes it with a decision.
// Run: npx tsc -b && node examples/dist/governance/approval-round-trip.js
import { spawn } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { scripted } from '@nestor/providers'
import { deployTool, runtimeWith } from './shared.js'

export async function main(log: (line: string) => void = console.log): Promise<Record<string, unknown>> {
  const provider = scripted([
    {
      content: [
        { type: 'toolCall', id: 'call-staging', name: 'deploy', arguments: { service: 'api', env: 'staging' } },
        { type: 'toolCall', id: 'call-prod', name: 'deploy', arguments: { service: 'api', env: 'production' } },
      ],
    },
  ])
  const paused = await runtimeWith(provider).exec('Ship the api everywhere', { tools: [deployTool(log)] })
  log(`[pid ${process.pid}] status: ${paused.status}, iterations used: ${paused.iterationsUsed}`)
  if (paused.status !== 'paused' || !paused.pending) throw new Error(`expected a pause, got ${paused.status}`)
  for (const a of paused.pending.approvals) log(`  waiting: ${a.toolName} ${JSON.stringify(a.args)} (${a.toolCallId})`)

  // The state is plain JSON: store it anywhere (a database row, a queue message, a file).
  const stored = JSON.stringify(paused.pending.state)
  log(`  stored ${stored.length} bytes of signed state`)

  // A person approves; another process (here: a child `node`) picks the state up and resumes.
  const decisions = { approve: paused.pending.approvals.map((a) => a.toolCallId) }
  const worker = fileURLToPath(new URL('./resume-worker.js', import.meta.url))
  const output = await runNode(worker, JSON.stringify({ state: stored, decisions }))
  const lines = output.split('\n').filter((line) => line.length > 0)
  for (const line of lines.slice(0, -1)) log(line)
  const summary = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>
  log(
    `[pid ${process.pid}] resumed elsewhere: ${summary.status}, "${summary.text}", iterations used: ${summary.iterationsUsed}`,
  )
  return summary
}

function runNode(file: string, stdin: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`resume worker exited with ${code}`))))
    child.stdin.end(stdin)
  })
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
