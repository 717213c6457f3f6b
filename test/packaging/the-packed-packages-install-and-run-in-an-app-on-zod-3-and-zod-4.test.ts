import { rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { installApp, installedCopies, packAll, sh, tscBin } from './packed-app.js'

// Packs every package, installs the tarballs with npm into apps outside the workspace (npm's cache
// makes repeated runs fast) and runs programs there, as a user of the published packages would.
const zodVersions = { 'zod 3': '3.25.76', 'zod 4': '4.6.7' }
let tarballs: string[] = []

beforeAll(async () => {
  tarballs = await packAll()
}, 300_000)
afterAll(async () => {
  if (tarballs[0]) await rm(dirname(tarballs[0]), { recursive: true, force: true })
}, 60_000)

describe.each(Object.entries(zodVersions))('an app on %s with only the openai SDK', (_label, zodVersion) => {
  let app = ''
  let main: Record<string, unknown> = {}
  beforeAll(async () => {
    app = await installApp(tarballs, zodVersion)
    main = JSON.parse((await sh(process.execPath, ['main.mjs'], app)).stdout) as Record<string, unknown>
  }, 300_000)
  afterAll(async () => {
    if (app) await rm(app, { recursive: true, force: true })
  }, 60_000)

  it('runs a tool inside a nested exec with streamed events and scripted() from the testing subpath', () => {
    const out = main
    expect(out.status).toBe('completed')
    expect(out.text).toBe('The helper says: the sum is 5.')
    expect(out.requests).toBe(4)
    expect(out.toolEnds).toEqual([
      { name: 'add', depth: 1, isError: false },
      { name: 'delegate', depth: 0, isError: false },
    ])
    expect(out.textDeltas).toBeGreaterThan(0)
    expect(out.addParameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number', description: 'first' }, b: { type: 'number' } },
    })
    expect(out.agentIsClass).toBe(true)
  })

  it('imports the providers root without the anthropic and gemini SDKs installed', () => {
    expect(main.rootExports).toEqual(['openai', 'anthropic', 'gemini', 'openaiCompatible', 'scripted', 'replay'])
  })

  it('loads the openai SDK at the first call and classifies its network error', () => {
    const openaiError = main.openaiError as { status: string; code: string; message: string }
    expect(openaiError).toMatchObject({ status: 'failed', code: 'provider_error' })
    expect(openaiError.message).toMatch(/network error/)
  })

  it('fails the first anthropic call with an error naming the missing peer to install', async () => {
    const { stdout } = await sh(process.execPath, ['missing-peer.mjs'], app)
    const out = JSON.parse(stdout) as { status: string; code: string; message: string }
    expect(out).toMatchObject({ status: 'failed', code: 'invalid_options' })
    expect(out.message).toContain('npm install @anthropic-ai/sdk')
  })

  it('works from CommonJS through require()', async () => {
    const { stdout } = await sh(process.execPath, ['require.cjs'], app)
    expect(JSON.parse(stdout)).toEqual({ text: 'hello from require' })
  })

  // node16 runs with skipLibCheck off, so it checks the openai SDK declarations too: slow on a busy machine.
  it.each(['node16', 'bundler'])(
    'type-checks a consumer under moduleResolution %s',
    async (resolution) => {
      await sh(process.execPath, [tscBin, '-p', `tsconfig.${resolution}.json`], app)
    },
    180_000,
  )

  it('ends up with exactly one copy of zod', () => {
    const copies = installedCopies(app, 'zod')
    expect(copies).toHaveLength(1)
  })
})
