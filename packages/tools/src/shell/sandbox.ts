import { spawnSync } from 'node:child_process'
import { accessSync, constants, lstatSync } from 'node:fs'
import { delimiter, join } from 'node:path'

export type SandboxMode = 'auto' | 'bubblewrap' | 'none'

/** Directories a sandboxed command sees empty: where users' keys, tokens and sockets live. */
export const HIDDEN_DIRS = ['/home', '/root', '/run', '/var/run', '/tmp', '/var/tmp', '/mnt', '/media']

/**
 * `/bin/sh -c command` with stderr joined to stdout in one pipe, so the two come back interleaved
 * in the order they were written (an outer sh sets it up and execs the real one).
 */
export const shellArgs = (command: string): string[] => ['/bin/sh', '-c', 'exec "$0" -c "$1" 2>&1', '/bin/sh', command]

let probed: string | false | undefined

/** The path of a bwrap that works on this machine (user namespaces allowed), or false. Probed once. */
export function findBubblewrap(): string | false {
  if (probed !== undefined) return probed
  probed = false
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'bwrap')
    try {
      accessSync(candidate, constants.X_OK)
    } catch {
      continue
    }
    const probe = spawnSync(candidate, ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], {
      stdio: 'ignore',
      timeout: 5000,
    })
    if (probe.status === 0) probed = candidate
    break
  }
  return probed
}

/**
 * bwrap's arguments for running `/bin/sh -c command` in `cwd`: the file system read-only, `cwd`
 * writable, HIDDEN_DIRS empty (tmpfs), a private /tmp, /dev and /proc; new user, PID, IPC, UTS and
 * network namespaces (no network unless `network`), a new session (no terminal injection), and
 * the whole sandbox killed when the tool's process dies.
 */
export function bubblewrapArgs(cwd: string, command: string, network: boolean): string[] {
  const args = ['--ro-bind', '/', '/']
  for (const dir of HIDDEN_DIRS) if (isRealDir(dir)) args.push('--tmpfs', dir)
  args.push('--dev', '/dev', '--proc', '/proc', '--bind', cwd, cwd, '--chdir', cwd)
  args.push('--unshare-all', ...(network ? ['--share-net'] : []), '--die-with-parent', '--new-session')
  return [...args, '--', ...shellArgs(command)]
}

// A symlink (/var/run → /run) is hidden through its target.
const isRealDir = (path: string): boolean => {
  try {
    return lstatSync(path).isDirectory()
  } catch {
    return false
  }
}
