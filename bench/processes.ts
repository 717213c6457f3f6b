import { execFile } from 'node:child_process'

// The bench runs each measurement in a Node process of its own, which prints one JSON line last.

/** CPU time of this process so far (user + system), in ms. */
export const cpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

export type NodeOutcome<T> = { ok: true; value: T } | { ok: false; error: string; stderr: string }

/**
 * Runs `node args…` and parses the last line it printed. A child that printed its JSON and then
 * exited with an error still counts: its report says what went wrong.
 */
export function runNodeJson<T>(args: string[], timeoutMs: number): Promise<NodeOutcome<T>> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      try {
        resolve({ ok: true, value: JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T })
      } catch {
        resolve({ ok: false, error: err?.message ?? 'no JSON line in its output', stderr })
      }
    })
  })
}
