import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build as esbuild } from 'esbuild'
import { chromium } from 'playwright-core'
import { build as viteBuild } from 'vite'
import webpack from 'webpack'
import { beforeAll, describe, expect, it } from 'vitest'
import { installApp, packAll, rootManifest, sh } from '../packaging/packed-app.js'
import { CHROMIUM, hasChromium } from '../support/browser-app.js'
import { text, toolCalls } from '../support/openai-loop-wire.js'
import { startWireServer } from '../support/wire-server.js'

// A Node app bundled by esbuild, webpack 5 and Vite (SSR) runs from a folder holding only its
// bundle: what Nestor loads on some paths only (zod, the JSON Schema validator) is imported by the
// bundler variant of `#peers`. Each bundle, Bun and Deno running the app as installed, and a
// Cloudflare Worker under workerd (all three from npm, pinned in .ci/versions.json) must give what
// Node gives unbundled, streamed SSE and a journal replay included. A page's app, bundled for the browser, runs in Debian's Chromium.

const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url))
let app: string
let unbundled: unknown

/** Copies `dir` (a bundle's output) to a fresh folder outside the app and runs its main.mjs there. */
async function runAlone(dir: string): Promise<unknown> {
  const alone = mkdtempSync(join(tmpdir(), 'nestor-bundle-alone-'))
  cpSync(dir, alone, { recursive: true })
  const { stdout } = await sh(process.execPath, ['main.mjs'], alone)
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

const pins = JSON.parse(readFileSync(new URL('../../.ci/versions.json', import.meta.url), 'utf8')) as Record<
  string,
  string
>

/** The pinned `bun`, `deno` or `workerd` binary, installed from npm under .ci/cache once per version. */
async function runtimeBin(name: 'bun' | 'deno' | 'workerd'): Promise<string> {
  const dir = fileURLToPath(new URL(`../../.ci/cache/${name}-${pins[name]}`, import.meta.url))
  const bin = join(dir, 'node_modules/.bin', name)
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true })
    await sh(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${name}@${pins[name]}`],
      dir,
    )
  }
  return bin
}

const lastLine = (stdout: string): unknown => JSON.parse(stdout.trim().split('\n').at(-1)!)

const WORKER_CONFIG = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .app) ],
  sockets = [ (name = "http", http = (), service = "main") ],
);
const app :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-15",
  compatibilityFlags = ["nodejs_compat"],
);
`

/** A port the OS hands out on 127.0.0.1 (bound to 0, then freed for workerd to bind). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** The JSON the worker answers, once workerd listens (a few seconds on a busy machine). */
async function answer(url: string, workerd: ChildProcess): Promise<unknown> {
  let stderr = ''
  workerd.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  for (;;) {
    if (workerd.exitCode !== null) throw new Error(`workerd exited ${workerd.exitCode}: ${stderr}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) })
      if (!response.ok) throw new Error(`worker answered ${response.status}: ${await response.text()}`)
      return await response.json()
    } catch (error) {
      // Not listening yet: the connection is refused (the test's timeout bounds the wait).
      if (!(error instanceof TypeError)) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** What a client reads of an SSE response (as the fixture's sseSummary): type, tools ended, the end. */
async function sseSummary(response: Response): Promise<unknown> {
  const frames = (await response.text())
    .split('\n\n')
    .filter((frame) => /^data: /m.test(frame))
    .map((frame) => ({
      event: /^event: (.*)$/m.exec(frame)?.[1],
      data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) as { depth?: number; toolName?: string; status?: string },
    }))
  return {
    contentType: response.headers.get('content-type'),
    toolEnds: frames.filter((f) => f.event === 'tool_end').map((f) => `${f.data.depth}:${f.data.toolName}`),
    end: { event: frames.at(-1)?.event, status: frames.at(-1)?.data.status },
  }
}

const outDir = (name: string) => mkdtempSync(join(tmpdir(), `nestor-bundle-${name}-`))

describe('the packed app', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    app = await installApp(await packAll(), rootManifest.devDependencies.zod!)
    for (const file of ['scenario.mjs', 'main.mjs', 'worker.mjs', 'page.mjs', 'serve.mjs'])
      cpSync(join(fixtures, file), join(app, file))
    const { stdout } = await sh(process.execPath, ['main.mjs'], app)
    unbundled = JSON.parse(stdout.trim().split('\n').at(-1)!)
  }, 600_000)

  it('unbundled, the app goes through every path (what each bundle must give)', () => {
    expect(unbundled).toMatchObject({
      optionError: expect.stringMatching(/^invalid_options: unknown option maxIteration: did you mean maxIterations\?/),
      nested: { status: 'completed', text: 'done: Porto is sunny', toolResults: ['Porto: sunny'] },
      rawSchemaErrors: [expect.stringMatching(/^invalid arguments for lookup: - \/city: /)],
      history: { status: 'completed' },
      badHistory: 'invalid_options',
      choice: 'train',
      output: { status: 'completed', output: { city: 'Porto', days: 2 }, modelCalls: 2 },
      resume: { paused: 'paused', resumed: 'completed', text: 'booked' },
      badState: 'invalid_state',
      sse: {
        contentType: expect.stringMatching(/^text\/event-stream/),
        toolEnds: ['1:lookup', '1:lookup', '0:delegate'],
        end: { event: 'end', status: 'completed' },
      },
      replay: {
        texts: ['Porto: sunny', 'Porto: sunny'],
        modelCalls: 2,
        toolResults: ['sunny in Porto (1)'],
        replayed: expect.arrayContaining(['message_end', 'tool_end']),
      },
    })
  })

  it('by esbuild (ESM, platform node)', async () => {
    const out = outDir('esbuild')
    const result = await esbuild({
      absWorkingDir: app,
      entryPoints: ['main.mjs'],
      bundle: true,
      platform: 'node',
      format: 'esm',
      outfile: join(out, 'main.mjs'),
      logLevel: 'silent',
    })
    expect(result.warnings.map((w) => w.text)).toEqual([])
    expect(await runAlone(out)).toEqual(unbundled)
  })

  it('by webpack 5 (ESM output, target node)', async () => {
    const out = outDir('webpack')
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          context: app,
          entry: './main.mjs',
          target: 'node20',
          output: { path: out, filename: 'main.mjs', module: true, chunkFormat: 'module' },
          experiments: { outputModule: true },
          optimization: { minimize: false },
        },
        (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result)),
      ),
    )
    const { errors, warnings } = stats.toJson({
      all: false,
      errors: true,
      warnings: true,
      moduleTrace: true,
      errorDetails: true,
    })
    expect(errors?.map((e) => e.message)).toEqual([])
    expect(warnings?.map((w) => `${w.moduleName}: ${w.message}`)).toEqual([])
    expect(await runAlone(out)).toEqual(unbundled)
  })

  it('by Vite (SSR build, every dependency bundled)', async () => {
    const out = outDir('vite')
    await viteBuild({
      root: app,
      logLevel: 'silent',
      configFile: false,
      ssr: { noExternal: true, target: 'node' },
      build: { ssr: 'main.mjs', outDir: out, minify: false, rollupOptions: { output: { entryFileNames: 'main.mjs' } } },
    })
    expect(await runAlone(out)).toEqual(unbundled)
  })

  it('on Bun, as installed', async () => {
    const { stdout } = await sh(await runtimeBin('bun'), ['main.mjs'], app)
    expect(lastLine(stdout)).toEqual(unbundled)
  })

  it('on Bun and Deno, the nested loop streamed as SSE by Bun.serve / Deno.serve reads as it does in process', async () => {
    const bun = await sh(await runtimeBin('bun'), ['serve.mjs'], app)
    const deno = await sh(
      await runtimeBin('deno'),
      ['run', '--allow-read', '--allow-env', '--allow-sys', '--allow-net=127.0.0.1', 'serve.mjs'],
      app,
    )
    const { sse } = unbundled as { sse: unknown }
    expect([lastLine(bun.stdout), lastLine(deno.stdout)]).toEqual([sse, sse])
  })

  it('on Deno, as installed', async () => {
    const { stdout } = await sh(
      await runtimeBin('deno'),
      ['run', '--allow-read', '--allow-env', '--allow-sys', 'main.mjs'],
      app,
    )
    expect(lastLine(stdout)).toEqual(unbundled)
  })

  it('in a Cloudflare Worker under workerd (nodejs_compat), bundled as wrangler does', async () => {
    const out = outDir('worker')
    await esbuild({
      absWorkingDir: app,
      entryPoints: ['worker.mjs'],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      conditions: ['workerd', 'worker', 'browser'],
      external: ['node:*'],
      outfile: join(out, 'worker.js'),
      logLevel: 'silent',
    })
    writeFileSync(join(out, 'config.capnp'), WORKER_CONFIG)
    const port = await freePort()
    const workerd = spawn(
      await runtimeBin('workerd'),
      ['serve', 'config.capnp', '--socket-addr', `http=127.0.0.1:${port}`],
      { cwd: out, stdio: ['ignore', 'ignore', 'pipe'] },
    )
    try {
      expect(await answer(`http://127.0.0.1:${port}/`, workerd)).toEqual(unbundled)
      // The Worker's own answer, streamed through workerd: what a client reads of it.
      const stream = await fetch(`http://127.0.0.1:${port}/sse`)
      expect(await sseSummary(stream)).toEqual((unbundled as { sse: unknown }).sse)
    } finally {
      workerd.kill()
    }
  })

  it.skipIf(!hasChromium)(
    'in Chromium, bundled for the browser: a nested loop through ctx.exec, the OpenAI and OpenAI-compatible adapters over fetch, a signed resume',
    async () => {
      const bundle = await esbuild({
        absWorkingDir: app,
        entryPoints: ['page.mjs'],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        minify: true,
        write: false,
        logLevel: 'silent',
      })
      expect(bundle.warnings.map((w) => w.text)).toEqual([])
      const script = bundle.outputFiles[0]!.contents
      const answers = [
        ...[1, 2].flatMap((n) => [
          toolCalls({ id: `call_${n}`, name: 'lookup', args: { city: 'Porto' } }),
          text('Porto is ', 'sunny'),
        ]),
      ]
      const server = await startWireServer()
      const html = '<!doctype html><script type="module" src="/app.js"></script>'
      server.fallback = ({ url }) =>
        url === '/'
          ? { headers: { 'content-type': 'text/html' }, body: html }
          : url === '/app.js'
            ? { headers: { 'content-type': 'text/javascript' }, body: Buffer.from(script), chunkSize: script.length }
            : url === '/v1/chat/completions' && answers.length
              ? { body: answers.shift()! }
              : url === '/api/show'
                ? { headers: { 'content-type': 'application/json' }, body: '{"capabilities":["completion","tools"]}' }
                : { status: 404, body: '' }
      const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS })
      try {
        const page = await browser.newPage()
        const errors: string[] = []
        page.on('pageerror', (error) => errors.push(error.message))
        await page.goto(server.url)
        await page.waitForFunction(() => 'runPage' in globalThis)
        const facts = await page.evaluate(
          (baseURL) => (globalThis as unknown as { runPage(url: string): Promise<unknown> }).runPage(baseURL),
          `${server.url}/v1`,
        )
        expect(errors).toEqual([])
        expect(facts).toEqual({
          nested: {
            status: 'completed',
            text: 'done',
            toolResults: [{ error: false, text: 'Porto: sunny' }],
            depths: [0, 1],
            idsRandom: true,
          },
          ambient: {
            status: 'completed',
            toolResults: [
              { error: true, text: expect.stringContaining('use the tool context: ctx.exec(input, options)') },
            ],
          },
          wire: {
            status: 'completed',
            text: 'Porto is sunny',
            toolResults: [{ error: false, text: 'sunny in Porto' }],
          },
          compatible: {
            protocol: 'native',
            status: 'completed',
            text: 'Porto is sunny',
            toolResults: [{ error: false, text: 'sunny in Porto' }],
          },
          resume: {
            paused: 'paused',
            resumed: 'completed',
            text: 'booked',
            tampered: 'invalid_state',
            toolResults: [{ error: false, text: 'booked Porto' }],
          },
          fileJournal: expect.stringMatching(/^invalid_options: fileJournal\(\) needs a file system/),
          keys: {
            none: 'failed invalid_options after 0 retries: OpenAI API key missing: pass apiKey or set OPENAI_API_KEY',
            inPage: expect.stringMatching(
              /^failed invalid_options after 0 retries: openai: the SDK refused to start: .*browser/,
            ),
          },
        })
        const model = server.requests.filter((r) => r.url === '/v1/chat/completions')
        const sentModel = (r: (typeof model)[number]) => (r.json as { model: string }).model
        expect(model.map(sentModel)).toEqual(['gpt-4o-mini', 'gpt-4o-mini', 'llama3.2', 'llama3.2'])
        expect(model.map((r) => r.headers.authorization?.includes('sk-page-test'))).toEqual([true, true, false, false])
        expect([model[1], model[3]].map((r) => JSON.stringify(r!.json))).toEqual([
          expect.stringContaining('sunny in Porto'),
          expect.stringContaining('sunny in Porto'),
        ])
        // The compatible adapter found native tools by asking the server, then sent them natively.
        expect(server.requests.filter((r) => r.url === '/api/show').map((r) => r.json)).toEqual([{ model: 'llama3.2' }])
        expect((model[2]!.json as { tools?: unknown[] }).tools).toHaveLength(1)
      } finally {
        await browser.close()
        await server.close()
      }
    },
  )

  it('an adapter subpath bundles without the other SDKs; the root @nestor/providers entry fails the build naming the SDK it lacks', async () => {
    const entry = (source: string) => ({ contents: source, resolveDir: app, loader: 'js' as const })
    const subpath = await esbuild({
      stdin: entry(
        `import { openaiCompatible } from '@nestor/providers/openai-compatible'\nconsole.log(typeof openaiCompatible)`,
      ),
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    })
    expect(subpath.errors).toEqual([])
    const root = await esbuild({
      stdin: entry(`import { scripted } from '@nestor/providers'\nconsole.log(typeof scripted)`),
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    }).catch((error: { errors: { text: string }[] }) => error)
    expect('errors' in root ? root.errors.map((e) => e.text) : []).toContain('Could not resolve "@anthropic-ai/sdk"')
  })
})
