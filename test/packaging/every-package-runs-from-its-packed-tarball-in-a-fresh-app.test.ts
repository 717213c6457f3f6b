import { readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  installApp,
  installWithoutPeers,
  installedCopies,
  packAll,
  packageDirs,
  packageOfTarball,
  rootManifest,
  sh,
} from './packed-app.js'

// Each package as a user of the published packages meets it: its packed tarball installed with npm
// into a fresh app outside the workspace (the required peers at the workspace's versions), and a
// program of test/packaging/app/ run there under plain node.
const names = packageDirs().map(
  (dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name,
)
/** The program that exercises each package: a package added to packages/ fails the first test until it has one. */
const smokeOf: Record<string, string> = {
  '@nestor/core': 'smoke-agent.ts',
  '@nestor/providers': 'smoke-agent.ts',
  '@nestor/agents': 'smoke-agent.ts',
  '@nestor/web': 'smoke-web.mjs',
  '@nestor/mcp': 'smoke-mcp-server.mjs',
  '@nestor/otel': 'smoke-otel.mjs',
  '@nestor/dbos': 'smoke-dbos.mjs',
  '@nestor/evals': 'smoke-evals.mjs',
  '@nestor/tools': 'smoke-tools.mjs',
  '@nestor/sessions': 'smoke-sessions.mjs',
  '@nestor/studio': 'smoke-studio.mjs',
}

let tarballs: string[] = []
let app = ''
/** core, providers and dbos without dbos's peers, as an app whose author forgot them. */
let bare = ''

beforeAll(async () => {
  tarballs = await packAll()
  const tarball = (name: string) => `file:${tarballs.find((t) => packageOfTarball(t) === name)!}`
  ;[app, bare] = await Promise.all([
    installApp(tarballs, rootManifest.devDependencies.zod!, {
      '@opentelemetry/sdk-trace-base': rootManifest.devDependencies['@opentelemetry/sdk-trace-base']!,
      '@libsql/client': rootManifest.devDependencies['@libsql/client']!,
    }),
    installWithoutPeers({
      '@nestor/core': tarball('@nestor/core'),
      '@nestor/providers': tarball('@nestor/providers'),
      '@nestor/dbos': tarball('@nestor/dbos'),
    }),
  ])
  // @tool is a TC39 decorator, which Node does not run: the program is compiled as an app would
  // compile it, for es2022 (docs/packaging.md).
  const source = readFileSync(join(app, 'smoke-agent.ts'), 'utf8')
  const compiled = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  })
  writeFileSync(join(app, 'smoke-agent.mjs'), compiled.outputText)
}, 600_000)
afterAll(async () => {
  for (const dir of [app, bare]) if (dir) await rm(dir, { recursive: true, force: true })
  if (tarballs[0]) await rm(dirname(tarballs[0]), { recursive: true, force: true })
}, 60_000)

const runIn = async (dir: string, program: string) =>
  JSON.parse((await sh(process.execPath, [program], dir)).stdout.trim().split('\n').at(-1)!) as Record<string, unknown>

describe('every package, from its packed tarball in a fresh npm app', () => {
  it('is installed there, one copy each, and has a smoke program', () => {
    expect(tarballs.map(packageOfTarball).sort()).toEqual([...names].sort())
    for (const name of names) expect(installedCopies(app, name), name).toHaveLength(1)
    expect(Object.keys(smokeOf).sort()).toEqual([...names].sort())
  })

  it('core, providers and agents: a scripted exec calls a decorated @tool method of an Agent', async () => {
    expect(await runIn(app, 'smoke-agent.mjs')).toEqual({
      status: 'completed',
      text: 'It is 5.',
      offered: ['add'],
      instructions: 'You add numbers with the add tool.',
      toolEnds: [{ name: 'add', isError: false }],
      toolResult: [{ type: 'text', text: '5' }],
    })
  }, 60_000)

  it('web: a run started by POST /runs streams over HTTP on 127.0.0.1; a caller who does not own it gets 404', async () => {
    const out = await runIn(app, 'smoke-web.mjs')
    expect(out).toMatchObject({
      started: 201,
      events: 200,
      text: 'Hello over HTTP.',
      ended: true,
      stranger: { status: 404, body: { error: { code: 'not_found' } } },
    })
    expect(out.contentType).toMatch(/^text\/event-stream/)
  }, 60_000)

  it('mcp: the SDK client lists the served tool and agent over stdio and calls the tool', async () => {
    const client = new Client({ name: 'packaging-smoke', version: '1' })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['smoke-mcp-server.mjs'],
      cwd: app,
      stderr: 'pipe',
    })
    let stderr = ''
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    try {
      await client.connect(transport)
      const { tools } = await client.listTools()
      expect(
        tools.map((t) => t.name),
        stderr,
      ).toEqual(['shout', 'greeter'])
      expect(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })).toMatchObject({
        isError: false,
        content: [{ type: 'text', text: 'HI' }],
      })
    } finally {
      await client.close()
    }
  }, 60_000)

  it('otel: an exec with a tool call is exported as invoke_agent, chat and execute_tool spans', async () => {
    expect(await runIn(app, 'smoke-otel.mjs')).toEqual({
      status: 'completed',
      names: ['chat test-model', 'chat test-model', 'execute_tool add', 'invoke_agent smoke'],
      agentName: 'smoke',
      children: 3,
    })
  }, 60_000)

  it('dbos: with @dbos-inc/dbos-sdk installed, durable() registers the execs (no Postgres needed for that)', async () => {
    expect(await runIn(app, 'smoke-dbos.mjs')).toEqual({ registered: { name: 'smoke', queueName: 'nestor-smoke' } })
  }, 60_000)

  it('dbos: without @dbos-inc/dbos-sdk, durable() fails with invalid_options naming the peer to install', async () => {
    expect(installedCopies(bare, '@dbos-inc/dbos-sdk')).toEqual([])
    const out = (await runIn(bare, 'smoke-dbos.mjs')) as { error?: { code?: string; message?: string } }
    expect(out.error).toMatchObject({ code: 'invalid_options' })
    expect(out.error?.message).toContain('npm install @dbos-inc/dbos-sdk')
  }, 60_000)

  it('evals: two cases recorded to cassettes from a scripted model replay offline and score; the bin answers --help', async () => {
    expect(await runIn(app, 'smoke-evals.mjs')).toEqual({
      statuses: ['completed', 'completed'],
      mean: 1,
      liveCalls: 2,
      html: true,
      help: true,
    })
  }, 60_000)

  it('studio: its page and its API answer behind the token on 127.0.0.1, the run streams, no token is 404; the bin answers --help', async () => {
    expect(await runIn(app, 'smoke-studio.mjs')).toEqual({
      page: [200, true],
      script: [200, 'text/javascript; charset=utf-8'],
      runs: [true],
      ended: true,
      noToken: 404,
      help: true,
    })
  }, 60_000)

  it('tools: a scripted exec reads inside its root, is refused outside it, and runs a command without the app secrets', async () => {
    expect(await runIn(app, 'smoke-tools.mjs')).toEqual({
      status: 'completed',
      results: [
        [false, 'Lisbon in May\n'],
        [true, 'refused: ../outside.txt is outside the root (paths are relative to the root, which they cannot leave)'],
        [false, 'exit code 0\n[]\n'],
      ],
    })
  }, 60_000)

  it('sessions: a second exec on a SQLite file session continues the first, and another owner sees nothing', async () => {
    expect(await runIn(app, 'smoke-sessions.mjs')).toEqual({
      statuses: ['completed', 'completed'],
      seen: [1, 3],
      stored: ['user', 'assistant', 'user', 'assistant'],
      foreign: 0,
    })
  }, 60_000)
})
