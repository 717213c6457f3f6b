import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'
import { noCardNumbers } from '../../../examples/web/card-guardrail.js'

const OUTPUT = fileURLToPath(new URL('../../../test-results/web/', import.meta.url))

describe.skipIf(!hasChromium)('a guardrail in the web example', () => {
  let web: BrowserApp

  beforeAll(async () => {
    web = await browserApp({ paceMs: 0, heartbeatMs: 2_000, guardrails: { input: [noCardNumbers] } })
  }, 120_000)

  afterAll(async () => web?.close())

  it('draws the input check as a step of the planner, and a trip ends the run failed with guardrail_tripped', async () => {
    const page = await (await web.newContext({ viewport: { width: 1200, height: 900 } })).newPage()
    await page.goto(web.url)
    await page.fill('#prompt', 'Plan a trip to Lisbon, pay with 4111 1111 1111 1111')
    await page.click('#send')
    await page.locator('#final[data-status="failed"]').waitFor(WAIT)
    expect(await page.locator('#final').textContent()).toMatch(
      /^guardrail_tripped: input guardrail no_card_numbers tripped/,
    )
    const step = page.locator('details.exec[data-depth="0"] > ol.steps > li.step.guardrail[data-verdict="tripwire"]')
    expect(await step.textContent()).toBe(
      'guardrail no_card_numbers (input): tripwire — the request holds a card number',
    )
    expect(await page.locator('.tool').count()).toBe(0)
    mkdirSync(OUTPUT, { recursive: true })
    await page.screenshot({ path: join(OUTPUT, 'guardrail-trip.png'), fullPage: true })
  }, 120_000)
})
