import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

const OUTPUT = fileURLToPath(new URL('../../../test-results/web/', import.meta.url))

type Seen = { positions: number[]; duplicates: number; gaps: number; ended: boolean; execId: string }
// Page-side code as strings: the test is compiled without the DOM library.
const seen = (page: Page) => page.evaluate('window.__nestor') as Promise<Seen>
// The API as the page's own session sees it (the runs belong to that browser's cookie).
const api = <T>(page: Page, path: string) =>
  page.evaluate(`fetch(${JSON.stringify(path)}).then((r) => r.json())`) as Promise<T>

describe.skipIf(!hasChromium)('the web example in headless Chromium', () => {
  let web: BrowserApp

  beforeAll(async () => {
    web = await browserApp({ paceMs: 5, heartbeatMs: 2_000 })
  }, 120_000)

  afterAll(async () => web?.close())

  it('streams the tree to depth 2, survives reloads mid-stream and at the approval, takes the approval, and ends with the answer, each event once', async () => {
    const page = await (await web.newContext({ viewport: { width: 1200, height: 900 } })).newPage()
    await page.goto(web.url)
    await page.fill('#prompt', 'Plan 3 days in Lisbon in May for two with a €900 budget')
    await page.click('#send')

    // The tree grows live: planner (0) → research (1) → librarian (2).
    await page.locator('details.exec[data-depth="2"]').first().waitFor(WAIT)
    // Reload while events are still streaming: those sent meanwhile come back on reconnect.
    await page.reload()
    await page.locator('details.exec[data-depth="2"]').first().waitFor(WAIT)
    // The run waits for the person at save_brief.
    await page.locator('.approval button.approve').waitFor(WAIT)
    const before = await seen(page)
    expect(before.positions.length).toBeGreaterThan(100)

    // Reload mid-run: the page redraws what it stored and reads on after its last position.
    await page.reload()
    await page.locator('.approval button.approve').waitFor(WAIT)
    // The card shows what save_brief's prepare() says it would save, next to the buttons.
    await expect(page.locator('.approval pre.preview').textContent()).resolves.toContain('+++ Lisbon in May')
    const restored = await seen(page)
    expect(restored.execId).toBe(before.execId)
    expect(await page.locator('details.exec[data-depth="2"]').count()).toBe(2)
    const info = await api<{ live: boolean; pending: unknown[] }>(page, `/api/runs/${before.execId}`)
    expect(info).toMatchObject({ live: true, pending: [expect.objectContaining({ toolName: 'save_brief' })] })

    await page.fill('#steer', 'keep it short')
    await page.click('#steer-send')
    // The page clears the box once the server accepted the message (202).
    await page.waitForFunction("document.getElementById('steer').value === ''", undefined, WAIT)
    await page.click('.approval button.approve')
    await page.locator('#final[data-status="completed"]').waitFor(WAIT)
    await page.waitForFunction('window.__nestor.ended', undefined, WAIT)

    const after = await seen(page)
    const server = await api<{ position: number; status: string }>(page, `/api/runs/${before.execId}`)
    expect(server.status).toBe('completed')
    // Every position from 1 to the server's last, in order, none twice, none missing.
    expect(after.positions).toEqual(Array.from({ length: server.position }, (_, i) => i + 1))
    expect(after.duplicates).toBe(0)
    expect(after.gaps).toBe(0)
    await expect(page.locator('#final').textContent()).resolves.toContain('Saved the brief "Lisbon in May"')
    await expect(page.locator('#transcript').textContent()).resolves.toContain('you: keep it short')

    mkdirSync(OUTPUT, { recursive: true })
    await page.screenshot({ path: join(OUTPUT, 'web-app.png'), fullPage: true })
  }, 180_000)
})
