import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { shellTool } from '@nestor/tools'
import { scratchDir } from '../support/scratch-dir.js'
import { call } from './call.js'

/** Whether a process still runs: gone from /proc, or a zombie waiting for its reaper, is not running. */
const running = (pid: number): boolean => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

/** The pids of running (not zombie) processes whose command line contains `needle` (NUL between arguments). */
const runningCommands = (needle: string): number[] =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle) && running(Number(pid))
      } catch {
        return false
      }
    })
    .map(Number)

// Two children (one a grandchild) that would sleep for 100 s, their pids written down first.
const FORKING = 'sleep 100 & echo $! > pids; sh -c "sleep 100 & echo \\$! >> pids; wait" & echo $! >> pids; wait'

describe('shellTool', () => {
  it('runs a command line under /bin/sh in cwd and answers its output and exit code', async () => {
    const cwd = scratchDir('nestor-shell-')
    const shell = shellTool({ cwd, sandbox: 'none' })
    const out = await call(shell, 'shell', { command: 'echo out; echo err >&2; pwd; exit 3' })
    expect(out).toMatchObject({ isError: false, text: `exit code 3\nout\nerr\n${cwd}\n` })
    expect(out.effect).toEqual({
      kind: 'command',
      command: 'echo out; echo err >&2; pwd; exit 3',
      exitCode: 3,
      signal: null,
      outputBytes: out.text.length - 'exit code 3\n'.length,
      sandbox: 'none',
    })
    expect(shell.needsApproval).toBe(true)
    expect(await shell.prepare!({ command: 'rm -rf build' }, {} as never)).toBe('$ rm -rf build')
  })

  it('kills the command and every process it forked when the timeout fires', async () => {
    const cwd = scratchDir('nestor-shell-')
    // The children are up long before the timeout on any machine; the assertions hold whenever it fires.
    const out = await call(shellTool({ cwd, timeoutMs: 1500, sandbox: 'none' }), 'shell', {
      command: `echo started; ${FORKING}`,
    })
    expect(out).toMatchObject({
      isError: true,
      text: 'timed out after 1500 ms: killed with its process group\nstarted\n',
    })
    const pids = readFileSync(join(cwd, 'pids'), 'utf8').trim().split('\n').map(Number)
    expect(pids).toHaveLength(3)
    expect(pids.filter(running)).toEqual([])
  })

  it('kills them on an abort too, and what a finished command left running in the background', async () => {
    const cwd = scratchDir('nestor-shell-')
    const shell = shellTool({ cwd, sandbox: 'none' })
    const controller = new AbortController()
    const pending = call(shell, 'shell', { command: `${FORKING}` }, controller.signal)
    // Abort once the children are there (their pids written), not after a guessed delay.
    while (!existsSync(join(cwd, 'pids')) || readFileSync(join(cwd, 'pids'), 'utf8').trim().split('\n').length < 3)
      await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    expect(await pending).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^aborted: killed with its process group/),
    })
    expect(readFileSync(join(cwd, 'pids'), 'utf8').trim().split('\n').map(Number).filter(running)).toEqual([])

    const background = await call(shell, 'shell', { command: 'sleep 100 & echo $! > bg; echo done' })
    expect(background).toMatchObject({ isError: false, text: 'exit code 0\ndone\n' })
    expect(running(Number(readFileSync(join(cwd, 'bg'), 'utf8')))).toBe(false)
  })

  it('keeps the head and the tail of a long output and says how much it left out', async () => {
    const cwd = scratchDir('nestor-shell-')
    const out = await call(shellTool({ cwd, maxOutputBytes: 40, sandbox: 'none' }), 'shell', { command: 'seq 1 10000' })
    expect(out.text).toBe(
      `exit code 0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n[… 48854 bytes of output left out …]\n997\n9998\n9999\n10000\n`,
    )
    expect(out.effect).toMatchObject({ outputBytes: 48894 })
  })

  it("passes only the allowlisted environment: the app's secrets are not inherited", async () => {
    const cwd = scratchDir('nestor-shell-')
    process.env.NESTOR_TEST_SECRET_KEY = 'sk-do-not-leak'
    try {
      const shell = shellTool({
        cwd,
        sandbox: 'none',
        env: { CI_MODE: 'yes', NESTOR_TEST_SECRET_KEY: false, HOME: false },
      })
      const out = await call(shell, 'shell', { command: 'env' })
      const names = out.text
        .split('\n')
        .slice(1)
        .map((line) => line.split('=')[0])
        .filter(Boolean)
      expect(out.text).not.toContain('sk-do-not-leak')
      expect(out.text).toContain('CI_MODE=yes')
      expect(
        names.every((name) =>
          [
            'PATH',
            'LANG',
            'LC_ALL',
            'LC_CTYPE',
            'TZ',
            'TERM',
            'USER',
            'LOGNAME',
            'TMPDIR',
            'CI_MODE',
            'PWD',
            'SHLVL',
            '_',
          ].includes(name!),
        ),
      ).toBe(true)
      const inherited = await call(
        shellTool({ cwd, sandbox: 'none', env: { NESTOR_TEST_SECRET_KEY: true } }),
        'shell',
        { command: 'echo $NESTOR_TEST_SECRET_KEY' },
      )
      expect(inherited.text).toBe('exit code 0\nsk-do-not-leak\n')
    } finally {
      delete process.env.NESTOR_TEST_SECRET_KEY
    }
  })
})

// What the sandbox mounts empty (packages/tools/src/shell/sandbox.ts).
const SANDBOX_HIDDEN = ['/home', '/root', '/run', '/var/run', '/tmp', '/var/tmp', '/mnt', '/media']

// bubblewrap installed and able to make its namespaces here (some containers forbid user namespaces).
const bwrap =
  spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '/bin/true'], { stdio: 'ignore' })
    .status === 0

describe.skipIf(!bwrap)(
  'shellTool in a bubblewrap sandbox (skipped where bwrap, Debian package bubblewrap, is missing or cannot run)',
  () => {
    it('writes only in cwd, sees an empty home, /tmp and /run, has no network, and still dies on a timeout', async () => {
      const cwd = scratchDir('nestor-sandbox-')
      const outside = scratchDir('nestor-outside-')
      writeFileSync(join(outside, 'keep.txt'), 'keep')
      const shell = shellTool({ cwd, sandbox: 'bubblewrap', timeoutMs: 20_000 })
      const write = await call(shell, 'shell', {
        command: `echo hi > inside.txt && cat inside.txt; echo no > ${outside}/keep.txt; echo $?; touch /etc/nestor-probe 2>/dev/null; echo $?`,
      })
      expect(write.effect).toMatchObject({ sandbox: 'bubblewrap' })
      expect(write.text).toMatch(/^exit code 0\nhi\n.*\n2\n1\n$/s)
      expect(existsSync('/etc/nestor-probe')).toBe(false)
      expect(readFileSync(join(cwd, 'inside.txt'), 'utf8')).toBe('hi\n')
      expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep')
      const look = await call(shell, 'shell', {
        command: `ls -A /root /home /run | wc -l; ls ${outside} 2>&1 | wc -l; ls /proc | grep -c '^[0-9]'`,
      })
      // /root, /home and /run empty (3 header lines from ls), the outside dir gone with /tmp, only a couple of processes.
      expect(look.text.split('\n').slice(1, 3)).toEqual(['5', '1'])
      expect(Number(look.text.split('\n')[3])).toBeLessThan(5)
      // A server of this process on loopback: the sandbox has a network of its own, where nothing listens.
      const server = createServer((socket) => socket.end()).listen(0, '127.0.0.1')
      await once(server, 'listening')
      const { port } = server.address() as AddressInfo
      // The sandbox empties /tmp, /home, /root…: a node installed under one (CI's Node 22/24 in a clone) is not
      // there, the machine's is.
      const visible = (path: string) => !SANDBOX_HIDDEN.some((dir) => path.startsWith(`${dir}/`))
      const node = [process.execPath, '/usr/bin/node', '/usr/local/bin/node'].find(
        (path) => visible(path) && existsSync(path),
      )
      if (node === undefined) throw new Error('no node binary outside the directories the sandbox hides')
      const connect = `${node} -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => console.log('connected')).on('error', (e) => console.log(e.code))"`
      try {
        expect((await call(shell, 'shell', { command: connect })).text).toBe('exit code 0\nECONNREFUSED\n')
        const networked = shellTool({ cwd, sandbox: 'bubblewrap', network: true })
        expect((await call(networked, 'shell', { command: connect })).text).toBe('exit code 0\nconnected\n')
      } finally {
        server.close()
      }
      const quick = shellTool({ cwd, sandbox: 'bubblewrap', timeoutMs: 300 })
      const slow = await call(quick, 'shell', { command: 'sleep 987.654 & sleep 987.654 & wait' })
      expect(slow).toMatchObject({ isError: true, text: 'timed out after 300 ms: killed with its process group\n' })
      // Their pids live in the sandbox's namespace: look for them by command line from outside.
      expect(runningCommands('sleep\u0000987.654')).toEqual([])
    })
  },
)
