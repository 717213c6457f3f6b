import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

// The mock server in a process of its own (mock-server-main.ts): on 2 cores its work then never
// counts as the measured client's CPU time.

export async function startServerProcess(): Promise<{ baseURL: string; proc: ChildProcess }> {
  const main = fileURLToPath(new URL('./mock-server-main.js', import.meta.url))
  const proc = spawn(process.execPath, [main], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    let buf = ''
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString()
      const nl = buf.indexOf('\n')
      if (nl >= 0) resolve(buf.slice(0, nl))
    })
    proc.once('exit', (code) => reject(new Error(`mock server exited with ${code}`)))
  })
  return { baseURL: (JSON.parse(line) as { baseURL: string }).baseURL, proc }
}
