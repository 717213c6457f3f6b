import { spawn, type ChildProcess } from 'node:child_process'

/** Starts `node script ...args` (built code only); `done` resolves with its parsed stdout. */
export function startNode(
  script: string,
  args: string[],
  stdin?: string,
): { child: ChildProcess; done: Promise<Record<string, unknown>> } {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()))
  const done = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      if (code !== 0) return reject(new Error(`${script} exited ${code ?? signal}: ${err}`))
      resolve(JSON.parse(out) as Record<string, unknown>)
    })
  })
  child.stdin?.end(stdin ?? '')
  return { child, done }
}
