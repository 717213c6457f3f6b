import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scripted } from '@nestor/providers'
import { sqliteSessions } from '@nestor/sessions/sqlite'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

const dir = mkdtempSync(join(tmpdir(), 'nestor-web-chats-'))
const path = join(dir, 'chats.db')
// A model that answers in text at once, saying how much of the chat it was sent.
const options = () => ({
  provider: scripted((request) => `You have said ${request.messages.filter((m) => m.role === 'user').length} things.`),
  sessions: sqliteSessions({ path }),
  heartbeatMs: 2_000,
})

const conversation = (page: Page) =>
  page.evaluate(
    `[...document.querySelectorAll('#conversation li')].map((li) => li.dataset.role + ': ' + li.textContent)`,
  ) as Promise<string[]>
const loaded = (page: Page, n: number) =>
  page.waitForFunction(`document.querySelector('#conversation')?.dataset.loaded === '${n}'`, undefined, WAIT)

describe.skipIf(!hasChromium)('the web example keeping chats on the server', () => {
  let web: BrowserApp
  let current = options()

  beforeAll(async () => {
    web = await browserApp(current)
  }, 120_000)

  afterAll(async () => {
    await web?.close()
    await current.sessions.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function ask(page: Page, text: string, after: number) {
    await page.fill('#prompt', text)
    await page.click('#send')
    await loaded(page, after)
  }

  it('a reload and a server restart keep the conversation for its browser; another browser given its chat id sees nothing', async () => {
    const alice = await (await web.newContext()).newPage()
    await alice.goto(web.url)
    await loaded(alice, 0)
    await ask(alice, 'Plan Lisbon', 2)
    await ask(alice, 'And Porto?', 4)
    const said = [
      'user: Plan Lisbon',
      'assistant: You have said 1 things.',
      'user: And Porto?',
      'assistant: You have said 2 things.',
    ]
    expect(await conversation(alice)).toEqual(said)

    await alice.reload()
    await loaded(alice, 4)
    expect(await conversation(alice)).toEqual(said)

    await current.sessions.close()
    current = options()
    await web.restart(current)
    await alice.reload()
    await loaded(alice, 4)
    expect(await conversation(alice)).toEqual(said)
    // The restarted server continues the chat from the file.
    await ask(alice, 'Thanks', 6)
    expect((await conversation(alice)).at(-1)).toBe('assistant: You have said 3 things.')

    // Mallory has her own cookie; even with Alice's chat id in her page she reads nothing of it.
    const chatId = (await alice.evaluate(`localStorage.getItem('nestor-web-chat')`)) as string
    const mallory = await (await web.newContext()).newPage()
    await mallory.goto(web.url)
    await mallory.evaluate(`localStorage.setItem('nestor-web-chat', ${JSON.stringify(chatId)})`)
    await mallory.reload()
    await loaded(mallory, 0)
    expect(await conversation(mallory)).toEqual([])
  })
})
