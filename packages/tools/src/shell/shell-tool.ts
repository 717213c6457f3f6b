import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { NestorError, type Tool } from '@nestor/core'
import { builtinTool, ToolRefusal, withEffect } from '../define.js'
import { runCommand } from './run-command.js'
import { bubblewrapArgs, findBubblewrap, shellArgs, type SandboxMode } from './sandbox.js'

export type ShellToolOptions = {
  /** Where commands run (and, sandboxed, the only place they can write). */
  cwd: string
  /** A command still running after this long is killed with its whole process group. Default 120 s. */
  timeoutMs?: number
  /**
   * The environment allowlist: names to pass from this process (`true`), values to set (a string),
   * or names to drop (`false`), over the default allowlist SAFE_ENV. Nothing else is inherited.
   */
  env?: Record<string, string | boolean>
  /** Output beyond this is cut in the middle (head and tail kept). Default 64 KiB. */
  maxOutputBytes?: number
  /** Each command waits for an approval, with the command line as its preview. Default true. */
  needsApproval?: boolean
  /** 'auto' (default): bubblewrap where it works, else none; 'bubblewrap': required; 'none'. */
  sandbox?: SandboxMode
  /** Sandboxed commands have no network unless this is true. */
  network?: boolean
}

/** What commands inherit by default: enough to find programs and print text, no credentials. */
export const SAFE_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TERM', 'USER', 'LOGNAME', 'TMPDIR']

function environment(overrides: Record<string, string | boolean> = {}): Record<string, string> {
  const out: Record<string, string> = {}
  const names = new Set([...SAFE_ENV, ...Object.keys(overrides)])
  for (const name of names) {
    const rule = overrides[name] ?? true
    if (rule === false) continue
    const value = rule === true ? process.env[name] : rule
    if (value !== undefined) out[name] = value
  }
  return out
}

const positive = (name: string, value: number | undefined, fallback: number): number => {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
    throw new NestorError('invalid_options', `invalid option ${name}: expected a positive number, got ${String(value)}`)
  return value
}

type ShellArgs = { command: string }

/** `shell`: one command line under `/bin/sh -c` in `cwd` (see ShellToolOptions). */
export function shellTool(options: ShellToolOptions): Tool {
  if (typeof options?.cwd !== 'string' || options.cwd === '')
    throw new NestorError('invalid_options', 'invalid option cwd: expected the path of a directory')
  const cwd = resolve(options.cwd)
  const timeoutMs = positive('timeoutMs', options.timeoutMs, 120_000)
  const maxOutputBytes = positive('maxOutputBytes', options.maxOutputBytes, 64 * 1024)
  const mode = options.sandbox ?? 'auto'
  if (!['auto', 'bubblewrap', 'none'].includes(mode))
    throw new NestorError(
      'invalid_options',
      `invalid option sandbox: expected 'auto' | 'bubblewrap' | 'none', got ${String(mode)}`,
    )
  const env = environment(options.env)
  return builtinTool<ShellArgs>({
    name: 'shell',
    description: `Run a command line with /bin/sh -c in the working directory. Output (stdout and stderr together) and the exit code come back; the command is killed after ${Math.round(timeoutMs / 1000)} s.`,
    parameters: {
      type: 'object',
      properties: { command: { type: 'string', description: 'The command line, e.g. npm test' } },
      required: ['command'],
    },
    needsApproval: options.needsApproval ?? true,
    prepare: async ({ command }) => `$ ${command}`,
    execute: async ({ command }, ctx) => {
      if (
        !(await stat(cwd).then(
          (s) => s.isDirectory(),
          () => false,
        ))
      )
        throw new ToolRefusal('the working directory of the shell tool does not exist')
      const bwrap = mode === 'none' ? false : findBubblewrap()
      if (mode === 'bubblewrap' && !bwrap)
        throw new ToolRefusal('refused: the sandbox (bubblewrap) is not available on this machine')
      const [file, args] = bwrap
        ? [bwrap, bubblewrapArgs(cwd, command, options.network === true)]
        : ['/bin/sh', shellArgs(command).slice(1)]
      const run = await runCommand({ file, args, cwd, env, timeoutMs, maxOutputBytes, signal: ctx.signal })
      const ended =
        run.stopped === 'timeout'
          ? `timed out after ${timeoutMs} ms: killed with its process group`
          : run.stopped === 'aborted'
            ? 'aborted: killed with its process group'
            : run.signal
              ? `killed by ${run.signal}`
              : `exit code ${run.exitCode}`
      const text = `${ended}\n${run.output}`
      if (run.stopped) throw new ToolRefusal(text)
      return withEffect(text, {
        kind: 'command',
        command,
        exitCode: run.exitCode,
        signal: run.signal,
        outputBytes: run.outputBytes,
        sandbox: bwrap ? 'bubblewrap' : 'none',
      })
    },
  })
}
