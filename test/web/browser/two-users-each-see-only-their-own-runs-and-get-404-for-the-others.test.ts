import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

type Seen = { positions: number[]; duplicates: number; gaps: number; ended: boolean; execId: string }
type Answer = { status: number; body: { error?: { code: string } } }

/** A request made by the page itself, with its own session cookie (page-side code as a string: no DOM types here). */
const request = (page: Page, method: 'GET' | 'POST', path: string, body?: unknown) =>
  page.evaluate(
    `fetch(${JSON.stringify(path)}, ${JSON.stringify(
      method === 'GET'
        ? {}
        : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) },
    )}).then(async (r) => ({ status: r.status, body: await r.json() }))`,
  ) as Promise<Answer>

const listed = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('#runs li')].map((li) => li.dataset.execId)`) as Promise<string[]>

describe.skipIf(!hasChromium)('two browsers on the web example, each its own session', () => {
  let web: BrowserApp

  beforeAll(async () => {
    web = await browserApp({ paceMs: 2, heartbeatMs: 2_000 })
  }, 120_000)

  afterAll(async () => web?.close())

  async function user(): Promise<Page> {
    const page = await (await web.newContext()).newPage()
    await page.goto(web.url)
    await page.fill('#prompt', 'Plan 3 days in Lisbon in May for two with a €900 budget')
    await page.click('#send')
    await page.locator('.approval button.approve').waitFor(WAIT)
    return page
  }

  it("the second user's read, events, approve, reject, edit, steer, followUp and abort of the first's run get 404; the first completes untouched", async () => {
    const alice = await user()
    const mallory = await user()
    const aliceRun = ((await alice.evaluate('window.__nestor')) as Seen).execId
    const malloryRun = ((await mallory.evaluate('window.__nestor')) as Seen).execId
    expect(aliceRun).not.toBe(malloryRun)

    // Each page lists its own run only.
    await alice.waitForFunction(`document.querySelectorAll('#runs li').length === 1`, undefined, WAIT)
    await mallory.waitForFunction(`document.querySelectorAll('#runs li').length === 1`, undefined, WAIT)
    expect(await listed(alice)).toEqual([aliceRun])
    expect(await listed(mallory)).toEqual([malloryRun])

    const before = await request(alice, 'GET', `/api/runs/${aliceRun}`)
    const attempts: [string, Answer][] = [
      ['read', await request(mallory, 'GET', `/api/runs/${aliceRun}`)],
      ['events', await request(mallory, 'GET', `/api/runs/${aliceRun}/events`)],
      ['approve', await request(mallory, 'POST', `/api/runs/${aliceRun}/approve`, { toolCallId: 'call_save' })],
      ['reject', await request(mallory, 'POST', `/api/runs/${aliceRun}/reject`, { toolCallId: 'call_save' })],
      [
        'edit',
        await request(mallory, 'POST', `/api/runs/${aliceRun}/edit`, {
          toolCallId: 'call_save',
          args: { title: 'pwned', body: 'x' },
        }),
      ],
      ['steer', await request(mallory, 'POST', `/api/runs/${aliceRun}/steer`, { message: 'mallory was here' })],
      ['followUp', await request(mallory, 'POST', `/api/runs/${aliceRun}/followUp`, { message: 'mallory again' })],
      ['abort', await request(mallory, 'POST', `/api/runs/${aliceRun}/abort`, {})],
    ]
    for (const [action, answer] of attempts)
      expect({ action, status: answer.status, code: answer.body.error?.code }).toEqual({
        action,
        status: 404,
        code: 'not_found',
      })
    // Alice's run is exactly where it was: same position, the same call waiting.
    expect(await request(alice, 'GET', `/api/runs/${aliceRun}`)).toEqual(before)

    await alice.click('.approval button.approve')
    await alice.locator('#final[data-status="completed"]').waitFor(WAIT)
    await alice.waitForFunction('window.__nestor.ended', undefined, WAIT)
    const seen = (await alice.evaluate('window.__nestor')) as Seen
    const info = (await request(alice, 'GET', `/api/runs/${aliceRun}`)).body as { position: number; status: string }
    expect(info.status).toBe('completed')
    expect(seen.positions).toEqual(Array.from({ length: info.position }, (_, i) => i + 1))
    await expect(alice.locator('#final').textContent()).resolves.toContain('Saved the brief "Lisbon in May"')
    await expect(alice.locator('#transcript').textContent()).resolves.not.toContain('mallory')

    await mallory.click('.approval button.approve')
    await mallory.locator('#final[data-status="completed"]').waitFor(WAIT)
  }, 180_000)
})
