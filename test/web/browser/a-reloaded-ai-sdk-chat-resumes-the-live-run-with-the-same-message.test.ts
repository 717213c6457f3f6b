import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'
const ENTRY = fileURLToPath(new URL('./chat-page/chat-client.ts', import.meta.url))

type Message = { id: string; role: string; parts: { type: string; data?: { status?: string; depth?: number } }[] }

/** The AI SDK's Chat (the real `ai` package) bundled for the page. */
async function chatBundle(): Promise<string> {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: { write: false, minify: false, lib: { entry: ENTRY, formats: ['es'], fileName: 'chat' } },
  })
  const result = (Array.isArray(out) ? out[0] : out) as { output: { code?: string }[] }
  return result.output[0]?.code as string
}

describe.skipIf(!hasChromium)('the AI SDK Chat with resume in headless Chromium', () => {
  let web: BrowserApp
  let bundle: string

  beforeAll(async () => {
    bundle = await chatBundle()
    web = await browserApp({ paceMs: 3, heartbeatMs: 2_000 })
  }, 120_000)

  afterAll(async () => web?.close())

  /** Loads the page with the bundle and makes `window.chat` (resuming it when `resume`). */
  async function open(page: Page, resume: boolean) {
    await page.goto(web.url)
    await page.addScriptTag({ content: bundle, type: 'module' })
    await page.waitForFunction('typeof window.nestorChat === "function"', undefined, WAIT)
    await page.evaluate(`window.chat = window.nestorChat('trip-chat', ${resume})`)
  }
  const assistant = (page: Page) =>
    page.evaluate(
      `window.chat.plain.messages.filter((m) => m.role === 'assistant').at(-1) ?? null`,
    ) as Promise<Message | null>
  const waitingApproval = (page: Page) =>
    page.waitForFunction(
      `window.chat.plain.messages.some((m) => m.parts.some((p) => p.type === 'data-approval' && p.data.status === 'pending'))`,
      undefined,
      WAIT,
    )
  const finished = (page: Page) =>
    page.waitForFunction(
      `window.chat.plain.status === 'ready' && window.chat.plain.messages.some((m) => m.parts.some((p) => p.type === 'data-approval' && p.data.status === 'approved') && m.parts.some((p) => p.type === 'text'))`,
      undefined,
      WAIT,
    )

  it('a tab reloaded mid-run resumes the live run and ends with the same message as a tab that never left; another session resumes nothing', async () => {
    const context = await web.newContext()
    const sender = await context.newPage()
    await open(sender, false)
    await sender.evaluate(`void window.chat.sendMessage({ text: 'Plan 3 days in Lisbon' })`)
    await waitingApproval(sender)

    // A second tab of the same session resumes the live run and then never leaves.
    const stayer = await context.newPage()
    await open(stayer, true)
    await waitingApproval(stayer)

    // The sender reloads: its chat state is gone, resume brings the whole message back.
    await sender.reload()
    await sender.addScriptTag({ content: bundle, type: 'module' })
    await sender.waitForFunction('typeof window.nestorChat === "function"', undefined, WAIT)
    await sender.evaluate(`window.chat = window.nestorChat('trip-chat', true)`)
    await waitingApproval(sender)

    // Another browser (its own session) asking for the same chat id gets nothing: 204.
    const other = await (await web.newContext()).newPage()
    await open(other, true)
    await other.waitForFunction(`window.chat.plain.status === 'ready'`, undefined, WAIT)
    expect(await other.evaluate('window.chat.plain.messages.length')).toBe(0)

    const execId = (await assistant(sender))?.id as string
    const approved = (await sender.evaluate(
      `fetch('/api/runs/${execId}/approve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ toolCallId: 'call_save' }) }).then((r) => r.status)`,
    )) as number
    expect(approved).toBe(202)
    await finished(sender)
    await finished(stayer)
    const reloaded = await assistant(sender)
    const stayed = await assistant(stayer)
    expect(reloaded).toEqual(stayed)
    expect(
      stayed?.parts
        .filter((p) => p.type === 'data-exec')
        .map((p) => p.data?.depth)
        .sort(),
    ).toEqual([1, 1, 2, 2])
  }, 180_000)
})
