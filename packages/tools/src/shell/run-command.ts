import { spawn } from 'node:child_process'
import { HeadTail } from './output-cap.js'
import { killGroup, waitGroupGone } from './process-group.js'

export type CommandRun = {
  exitCode: number | null
  signal: NodeJS.Signals | null
  /** Why the run was cut short, if it was. */
  stopped?: 'timeout' | 'aborted'
  output: string
  outputBytes: number
}

export type RunSpec = {
  file: string
  args: string[]
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  maxOutputBytes: number
  signal: AbortSignal
}

/** How long output may still arrive after the command exits, from processes outside its group. */
const DRAIN_MS = 2000

/**
 * Runs a command as the leader of a new process group (`detached`), stdout and stderr interleaved
 * into one capped output. A timeout, an abort, and the command's own exit all end with the whole
 * group killed: a background child (`sleep 100 &`) never outlives the call. Resolves once the
 * output pipes have closed and every process of the group has exited.
 */
export function runCommand(spec: RunSpec): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const output = new HeadTail(spec.maxOutputBytes)
    let stopped: CommandRun['stopped']
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
    const child = spawn(spec.file, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const stop = (why: 'timeout' | 'aborted') => {
      stopped ??= why
      killGroup(child.pid)
    }
    const timer = setTimeout(() => stop('timeout'), spec.timeoutMs)
    const onAbort = () => stop('aborted')
    spec.signal.addEventListener('abort', onAbort, { once: true })
    if (spec.signal.aborted) onAbort()
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk))
    let drain: ReturnType<typeof setTimeout> | undefined
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      // What the command left running in its group goes with it.
      killGroup(child.pid)
      // A process that left the group (setsid) may hold the pipes open: stop waiting for it.
      drain = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, DRAIN_MS)
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      spec.signal.removeEventListener('abort', onAbort)
      reject(error)
    })
    child.on('close', async (code, signal) => {
      clearTimeout(timer)
      clearTimeout(drain)
      spec.signal.removeEventListener('abort', onAbort)
      const ended = exit ?? { code, signal }
      killGroup(child.pid)
      await waitGroupGone(child.pid)
      resolve({
        exitCode: ended.code,
        signal: ended.signal,
        ...(stopped && { stopped }),
        output: output.text(),
        outputBytes: output.total,
      })
    })
  })
}
