import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

const OUTPUT = fileURLToPath(new URL('../../../test-results/web/', import.meta.url))

// A reader that asks for pages 1..12 and reports no usage (the loop estimates every request);
// asked for a summary (the summarizer's system prompt), it lists the pages it was shown.
const reader = scripted((request) => {
  if (request.system?.startsWith('You write the working memory'))
    return `pages seen: ${[...JSON.stringify(request.messages).matchAll(/page (\d+):/g)].map((m) => m[1]).join(', ')}`
  const last = JSON.stringify(request.messages.slice(-1)).match(/page (\d+):/)
  const n = last ? Number(last[1]) : 0
  if (n === 12) return 'Read all 12 pages.'
  return { content: [{ type: 'toolCall', name: 'read', arguments: { n: n + 1 } }], usage: { input: 0 } }
})
const read = defineTool({
  name: 'read',
  description: 'Reads a page',
  parameters: z.object({ n: z.number() }),
  execute: ({ n }) => `page ${n}: ${'text '.repeat(200)}`,
}) as unknown as Tool

describe.skipIf(!hasChromium)('context compaction in the web example', () => {
  let web: BrowserApp

  beforeAll(async () => {
    web = await browserApp({
      provider: reader,
      heartbeatMs: 2_000,
      tools: () => [read],
      context: { maxTokens: 1500, reserveTokens: 100 },
    })
  }, 120_000)

  afterAll(async () => web?.close())

  it('draws each compaction as a step of its exec, with the summarizer as a nested exec under it', async () => {
    const page = await (await web.newContext({ viewport: { width: 1200, height: 900 } })).newPage()
    await page.goto(web.url)
    await page.fill('#prompt', 'Read every page.')
    await page.click('#send')
    await page.locator('#final[data-status="completed"]').waitFor(WAIT)
    expect(await page.locator('#final').textContent()).toBe('Read all 12 pages.')
    const steps = page.locator(
      'details.exec[data-depth="0"] > ol.steps > li.step.compaction[data-strategy="summarize"]',
    )
    expect(await steps.count()).toBeGreaterThan(0)
    expect(await steps.first().textContent()).toMatch(/^context compacted \(summarize, limit\): \d+ → \d+ messages/)
    const summarizers = page.locator('details.exec[data-depth="1"] > summary')
    expect(await summarizers.count()).toBe(await steps.count())
    expect(await summarizers.first().textContent()).toMatch(/^context summary \(depth 1\)/)
    mkdirSync(OUTPUT, { recursive: true })
    await page.screenshot({ path: join(OUTPUT, 'context-compaction.png'), fullPage: true })
  })
})
