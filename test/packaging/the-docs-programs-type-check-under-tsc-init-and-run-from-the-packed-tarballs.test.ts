import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { docBlocks, type DocBlock } from './doc-blocks.js'
import { docsAppPeers } from './docs-app.js'
import { startDocsModel, type DocsModelServer } from './docs-model-server.js'
import { installApp, packAll, repoRoot, rootManifest, sh, tscBin } from './packed-app.js'

// Every `// runnable` block of README.md, docs/ and the package READMEs, as a newcomer would use
// it: a file of a fresh npm app that installed the packed tarballs (and only the openai SDK),
// type-checked with skipLibCheck off under the flags `tsc --init` writes today (TypeScript 5.9)
// and in TypeScript 7, built by both with the tsconfig docs/packaging.md recommends and run under
// plain node, `openai()` talking to a local model server.
const programs = docBlocks().filter((b) => b.kind === 'runnable' || b.kind === 'server')
const compilers = { 'TypeScript 5.9': tscBin, 'TypeScript 7': join(repoRoot, 'node_modules/typescript-7/bin/tsc') }
type Compiler = keyof typeof compilers
/** `TypeScript 5.9` → `TypeScript59`: a file-name part per compiler. */
const tag = (label: string) => label.replace(/\W+/g, '')

/** The ```json block under "## A recommended tsconfig" in docs/packaging.md, as the docs show it. */
function recommendedTsconfig(): string {
  const guide = readFileSync(join(repoRoot, 'docs/packaging.md'), 'utf8')
  const block = guide.split('## A recommended tsconfig')[1]?.match(/```json\n([\s\S]*?)```/)?.[1]
  if (!block) throw new Error('docs/packaging.md has no recommended tsconfig block')
  return block
}

let tarballs: string[] = []
let app = ''
let docs = ''

beforeAll(async () => {
  tarballs = await packAll()
  app = await installApp(tarballs, rootManifest.devDependencies.zod!, docsAppPeers())
  // The layout of getting-started.md: the programs in src/, the recommended tsconfig beside it.
  docs = join(app, 'docs')
  mkdirSync(join(docs, 'src'), { recursive: true })
  for (const block of programs) writeFileSync(join(docs, 'src', `${block.name}.ts`), block.code)
  writeFileSync(join(docs, 'tsconfig.json'), recommendedTsconfig())
  // Each compiler's own `tsc --init`, as is; the check adds only what the docs' setup says.
  for (const [label, tsc] of Object.entries(compilers)) {
    const dir = mkdtempSync(join(tmpdir(), 'nestor-tsc-init-'))
    await sh(process.execPath, [tsc, '--init'], dir)
    const init = `tsconfig.init-${tag(label)}.json`
    copyFileSync(join(dir, 'tsconfig.json'), join(docs, init))
    await rm(dir, { recursive: true, force: true })
    writeFileSync(
      join(docs, `tsconfig.check-${tag(label)}.json`),
      JSON.stringify({
        extends: `./${init}`,
        compilerOptions: { types: ['node'], skipLibCheck: false, noEmit: true },
        include: ['src'],
      }),
    )
  }
}, 600_000)
afterAll(async () => {
  if (app) await rm(app, { recursive: true, force: true })
  if (tarballs[0]) await rm(dirname(tarballs[0]), { recursive: true, force: true })
}, 60_000)

describe("the docs' programs in a fresh app on the packed tarballs", () => {
  it('has programs to run, the README and getting-started ones among them', () => {
    expect(programs.length).toBeGreaterThan(10)
    expect(programs.map((p) => p.where.split(':')[0])).toEqual(
      expect.arrayContaining(['README.md', 'docs/getting-started.md', 'packages/agents/README.md']),
    )
  })

  it.each(Object.keys(compilers))(
    "type-check under %s's tsc --init flags (strict, nodenext, exactOptionalPropertyTypes, noUncheckedIndexedAccess) with skipLibCheck off",
    async (label) => {
      const init = readFileSync(join(docs, `tsconfig.init-${tag(label)}.json`), 'utf8')
      for (const flag of [
        '"module": "nodenext"',
        '"strict": true',
        '"exactOptionalPropertyTypes": true',
        '"noUncheckedIndexedAccess": true',
      ])
        expect(init).toContain(flag)
      await sh(process.execPath, [compilers[label as Compiler], '-p', `tsconfig.check-${tag(label)}.json`], docs)
    },
    300_000,
  )

  it("installs @nestor/web's tarball beside core's alone, as docs/packaging.md says", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nestor-web-alone-'))
    try {
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'web-alone', private: true, type: 'module' }))
      const tarball = (name: string) => tarballs.find((t) => t.includes(`/nestor-${name}-`))!
      await sh(
        'npm',
        ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', tarball('core'), tarball('web')],
        dir,
      )
      const { stdout } = await sh(
        process.execPath,
        ['--input-type=module', '-e', "const web = await import('@nestor/web'); console.log(typeof web.toSSE)"],
        dir,
      )
      expect(stdout.trim()).toBe('function')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }, 300_000)

  describe.each(Object.keys(compilers) as Compiler[])('built by %s with the recommended tsconfig', (label) => {
    const outDir = `dist-${tag(label)}`
    beforeAll(async () => {
      await sh(process.execPath, [compilers[label], '-p', 'tsconfig.json', '--outDir', outDir], docs)
    }, 300_000)

    it.each(programs.map((p) => [p.where, p] as const))(
      '%s runs under node and prints what it promises',
      async (_where, block) => {
        const model = await startDocsModel()
        const file = join(outDir, `${block.name}.js`)
        try {
          const printed = block.kind === 'server' ? await serve(block, file, model) : await runProgram(file, model)
          expect(inOrder(printed.split('\n'), block.promised)).toEqual(block.promised)
          // A program that declares tools and asks the model must have offered them and got a result back.
          if (/defineTool\(|@tool\(/.test(block.code) && model.requests.length > 0) {
            const offered = model.requests.some((r) => (r.tools?.length ?? 0) > 0)
            const answered = model.requests.some((r) => r.messages.some((m) => m.role === 'tool'))
            expect({ offered, answered }, 'its tools reach the model and a tool result comes back').toEqual({
              offered: true,
              answered: true,
            })
          }
        } finally {
          await model.close()
        }
      },
      120_000,
    )
  })
})

const env = (model: DocsModelServer) => ({ OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-docs-local', PORT: '0' })

async function runProgram(file: string, model: DocsModelServer): Promise<string> {
  const { stdout } = await sh(process.execPath, [file], docs, env(model))
  return stdout
}

/**
 * A `// runnable server` program prints `try: curl …` lines and then a line ending in
 * `(Ctrl-C to stop)`; each try line is then requested as curl would, and must answer 2xx (an
 * event stream down to its `end` frame).
 */
async function serve(block: DocBlock, file: string, model: DocsModelServer): Promise<string> {
  const child = spawn(process.execPath, [file], {
    cwd: docs,
    env: { ...process.env, ...env(model) },
  })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        if (stdout.includes('(Ctrl-C to stop)\n')) resolve()
      })
      child.on('exit', (code) =>
        reject(new Error(`${block.where} exited with ${code} before serving\n${stdout}\n${stderr}`)),
      )
    })
    const tries = [...stdout.matchAll(/^try: curl (.*)$/gm)].map((m) => m[1]!)
    expect(tries.length).toBeGreaterThan(0)
    for (const line of tries) {
      const url = line.split(' ').at(-1)!
      const data = line.match(/-d '([^']*)'/)?.[1]
      const response = await fetch(
        url,
        data === undefined ? {} : { method: 'POST', body: data, headers: { 'content-type': 'application/json' } },
      )
      const body = await response.text()
      expect(response.status, `${line}\n${stderr}`).toBeLessThan(300)
      // A stream of a run is read to its end frame: the run completed over HTTP.
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) expect(body).toContain('event: end')
      stdout += body
    }
    return stdout
  } finally {
    child.kill()
  }
}

/** The promised lines found in `lines`, in order (equal to `promised` when all are there). */
function inOrder(lines: string[], promised: string[]): string[] {
  const found: string[] = []
  let at = 0
  for (const line of promised) {
    const index = lines.indexOf(line, at)
    if (index === -1) break
    found.push(line)
    at = index + 1
  }
  return found
}
