import { readdir, readFile } from 'node:fs/promises'

/** Sends SIGKILL to every process of the group; a group already gone is fine. */
export function killGroup(pgid: number | undefined): void {
  if (pgid === undefined) return
  try {
    process.kill(-pgid, 'SIGKILL')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

/** Whether some process of the group has not finished exiting (zombies have: they only wait to be reaped). */
async function groupRunning(pgid: number): Promise<boolean> {
  try {
    process.kill(-pgid, 0)
  } catch {
    return false
  }
  // Members left: zombies (a container's init may never reap them), or processes still dying.
  const pids = await readdir('/proc').catch(() => [])
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') return true
  }
  return false
}

/**
 * Waits until every process of a killed group has exited (SIGKILL is delivered at once, but a
 * process closes its files before it is gone), so that a call returns only after its processes
 * are. Bounded: a process stuck in the kernel (uninterruptible I/O) is not waited for forever.
 */
export async function waitGroupGone(pgid: number | undefined, limitMs = 2000): Promise<void> {
  if (pgid === undefined) return
  const until = Date.now() + limitMs
  while ((await groupRunning(pgid)) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5))
}
