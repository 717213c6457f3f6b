import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Runtime, agentProfile, defineTool, type Message, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { fileJournals, studio, type Studio } from '@nestor/studio'
import { ApprovalGate } from '@nestor/web'
import { z } from 'zod'
import { CHROMIUM, hasChromium, WAIT } from '../../support/browser-app.js'
import { tripApp } from '../support.js'

// Functions, not strings: the page's Content-Security-Policy forbids evaluating strings, as it should.
type StudioState = {
  overview?: unknown
  listedAt?: number
  view?: { status?: string; positions: number[]; drawnAt?: number }
  fork?: { status?: string }
}
// Screenshots for docs/studio.md (copied to docs/images by hand when the page changes).
const OUTPUT = fileURLToPath(new URL('../../../test-results/studio/', import.meta.url))
const textOf = (content: Message['content']) =>
  typeof content === 'string' ? content : content.map((c) => ('text' in c ? c.text : '')).join('')
const texts = (page: Page, selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => n.textContent ?? ''))
const state = (page: Page) => page.evaluate(() => (globalThis as unknown as { __studio: StudioState }).__studio)
const until = (page: Page, what: 'overview' | 'listed' | 'view' | 'fork') =>
  page.waitForFunction(
    (key) => {
      const s = (globalThis as unknown as { __studio: StudioState }).__studio
      if (key === 'overview') return s.overview !== undefined
      if (key === 'listed') return s.listedAt !== undefined
      return s[key]?.status === 'completed'
    },
    what,
    WAIT,
  )

describe.skipIf(!hasChromium)('the studio page in Chromium', () => {
  const app = tripApp()
  let served: Studio
  let browser: Browser

  beforeAll(async () => {
    served = await studio(app.runtime, {
      port: 0,
      approvals: app.gate,
      recorded: fileJournals(app.dir),
      forkOptions: () => ({ tools: app.tools }),
    })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await served?.close()
    rmSync(app.dir, { recursive: true, force: true })
  })

  it('shows a nested run live, approves its call from the page, then forks the recorded run at a tool step', async () => {
    const page = await (await browser.newContext()).newPage()
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(error.message))
    await page.goto(served.url)
    await until(page, 'overview')

    // A run the app starts: it appears in the list (the page polls), and opens live.
    const run = app.start('trip-live')
    const item = page.locator(`#live-runs li[data-exec-id="${run.execId}"] button`)
    await item.waitFor(WAIT)
    await item.click()

    // The child exec waits for approval of `book`: its card shows the arguments and the preview.
    const card = page.locator('.approval[data-tool-call-id="call_book"]')
    await card.waitFor(WAIT)
    expect(await card.locator('.preview').textContent()).toBe('+ booking at Alfama')
    expect(JSON.parse((await card.locator('textarea.args').inputValue()) as string)).toEqual({ hotel: 'Alfama' })
    expect(await page.locator('.status').first().textContent()).toBe('waiting')
    // The tree is two execs deep, search done in the child, research still running in the root.
    await page.locator('details.exec[data-depth="1"] .tool[data-state="done"]').first().waitFor(WAIT)
    expect(await texts(page, 'details.exec[data-depth="1"] > ol.steps .tool-head')).toEqual([
      expect.stringMatching(/^✓ search · \d+ ms · ok$/),
      expect.stringMatching(/^○ book /),
    ])

    mkdirSync(OUTPUT, { recursive: true })
    await page.screenshot({ path: join(OUTPUT, 'studio-live.png'), fullPage: true })
    // The guardrail's verdict on the search call, under that call.
    expect(
      await texts(page, 'details.exec[data-depth="1"] .tool[data-state="done"] > .guardrail[data-name="notes_only"]'),
    ).toEqual(['guardrail notes_only (tool, before the call): pass'])
    await card.locator('button.approve').click()
    await until(page, 'view')
    expect((await run).text).toBe('trip: researched: lisbon is sunny; booked Alfama')
    expect(await page.locator('.approval').count()).toBe(0)
    expect(await page.locator('details.exec[data-depth="0"] > .exec-text').textContent()).toBe(
      'trip: researched: lisbon is sunny; booked Alfama',
    )
    // Each turn with its request and response (root 2, child 3), drawn when the list is opened; the
    // positions came in order, once each.
    expect(await page.locator('.turn').count()).toBe(0)
    await page.click('.turns-fold > summary')
    await page.locator('.turns-fold[data-drawn]').waitFor(WAIT)
    expect(await page.locator('.turn').count()).toBe(5)
    expect(await page.locator('.turn .response').count()).toBe(5)
    const positions = (await state(page)).view!.positions
    expect(positions).toEqual(positions.map((_, i) => i + 1))

    // The recorded run, forked at the root's research step with an edited result, side by side.
    await page.click('#refresh')
    await page.locator('#recorded-runs li[data-run-id="trip-live"] button').click()
    const step = page.locator('.entry[data-key="root#1:tool:call_research"]')
    await step.waitFor(WAIT)
    expect(await step.locator('.what').textContent()).toBe('research → researched: lisbon is sunny; booked Alfama')
    await step.locator('button.open-fork').click()
    await step.locator('textarea.edit').fill('no hotels left')
    await step.locator('button.fork-button').click()
    await until(page, 'fork')
    // Two exec trees side by side: the fork's, whose research step is the edit (its body did not run
    // again, so it opened no child), and the original's as its journal recorded it, two execs deep.
    const fork = page.locator('.fork-pane .tree')
    expect(await fork.locator('details.exec[data-depth="0"] > .exec-text').textContent()).toBe('trip: no hotels left')
    const edited = fork.locator('.tool[data-edited="true"]')
    expect(await edited.getAttribute('data-tool-call-id')).toBe('call_research')
    expect(await edited.locator('> .tool-head').textContent()).toMatch(/^✓ research · \d+ ms · .*edited$/)
    expect(await fork.locator('details.exec[data-depth="1"]').count()).toBe(0)
    const original = page.locator('.original .tree')
    expect(await original.locator('.tool[data-edited]').count()).toBe(0)
    const research = original.locator('details.exec[data-depth="0"] .tool[data-tool-call-id="call_research"]')
    expect(await research.locator('> .tool-head').textContent()).toMatch(/^✓ research · \d+ ms · ok$/)
    expect(await texts(page, '.original .tree details.exec[data-depth="1"] .tool-head')).toEqual([
      expect.stringMatching(/^✓ search · \d+ ms · ok$/),
      expect.stringMatching(/^✓ book · \d+ ms · ok$/),
    ])
    expect(await original.locator('details.exec[data-depth="0"] > .exec-text').textContent()).toBe(
      'trip: researched: lisbon is sunny; booked Alfama',
    )
    // Below the original's tree, each step to fork at.
    expect(await page.locator('.original .entry').count()).toBeGreaterThan(3)
    await page.screenshot({ path: join(OUTPUT, 'studio-fork.png'), fullPage: true })
    expect(problems).toEqual([])
  }, 120_000)

  it('resumes a run that paused for approval (a runtime without approve) with an edit made on the page', async () => {
    const paused = tripApp({ pause: true })
    const served = await studio(paused.runtime, { port: 0, resumeOptions: () => ({ tools: paused.tools }) })
    try {
      const run = paused.runtime.exec('Plan Lisbon', { tools: paused.tools })
      expect((await run).status).toBe('paused')
      const page = await (await browser.newContext()).newPage()
      await page.goto(`${served.url}#live/${run.execId}`)
      const card = page.locator('.approval[data-tool-call-id="call_book"]')
      await card.waitFor(WAIT)
      await card.locator('textarea.args').fill('{"hotel":"Baixa"}')
      await card.locator('button.edit').click()
      await page.locator('button.resume-button').click()
      // The resumed run goes on under the same id: the same tree, read on after its last position.
      await until(page, 'view')
      expect(await page.locator('details.exec[data-depth="0"]').count()).toBe(1)
      expect(await page.locator('details.exec[data-depth="0"] > .exec-text').textContent()).toBe(
        'trip: researched: lisbon is sunny; booked Baixa',
      )
      const positions = (await state(page)).view!.positions
      expect(positions).toEqual(positions.map((_, i) => i + 1))
    } finally {
      await served.close()
      rmSync(paused.dir, { recursive: true, force: true })
    }
  }, 120_000)

  it("answers a tool's question from the page after a handoff, and the tree says who answers and what was asked", async () => {
    const gate = new ApprovalGate()
    const pay = defineTool({
      name: 'pay',
      description: 'Pay the bill',
      parameters: z.object({}),
      execute: async (_args, ctx) => {
        const { card } = await ctx.ask('Which card?', z.object({ card: z.enum(['personal', 'work']) }))
        return `paid with the ${card} card`
      },
    })
    const billing = { [agentProfile]: () => ({ name: 'billing', instructions: 'You are billing.', tools: [pay] }) }
    const provider = scripted((request) => {
      const last = request.messages.at(-1)
      if (!request.system?.startsWith('You are billing'))
        return { content: [{ type: 'toolCall', name: 'transfer_to_billing', arguments: {} }] }
      return last?.role === 'toolResult' && last.toolName === 'pay'
        ? `billing: ${textOf(last.content)}`
        : { content: [{ type: 'toolCall', id: 'call_pay', name: 'pay', arguments: {} }] }
    })
    const runtime = new Runtime({ provider, model: 'scripted-desk', approve: gate.approve, ask: gate.ask })
    const served = await studio(runtime, { port: 0, approvals: gate })
    try {
      const run = runtime.exec('Pay my bill', { handoffs: [billing], agent: 'triage' })
      const page = await (await browser.newContext()).newPage()
      await page.goto(`${served.url}#live/${run.execId}`)
      const form = page.locator('form.question')
      await form.waitFor(WAIT)
      expect(await form.locator('strong').textContent()).toBe('Which card?')
      await form.locator('select[name="card"]').selectOption('work')
      await form.locator('button.answer').click()
      await until(page, 'view')
      expect((await run).text).toBe('billing: paid with the work card')
      expect(await page.locator('form.question').count()).toBe(0)
      // The handoff is a line under its transfer call, and the root is named after who answers now.
      expect(await texts(page, 'details.exec[data-depth="0"] .handoff')).toEqual(['triage hands over to billing'])
      expect(await page.locator('details.exec[data-depth="0"] > summary .exec-name').textContent()).toBe(
        'billing (depth 0) ',
      )
      expect(await texts(page, '.tool[data-tool-call-id="call_pay"] > .asked')).toEqual(['asks: Which card?'])
      expect(await page.locator('details.exec .event').count()).toBe(0)
    } finally {
      await served.close()
    }
  }, 120_000)

  // The speed the issue asks for, reported (never asserted: a loaded machine must not fail a test).
  it('reports how fast the first view draws with 1,000 recorded runs and a run of 400 turns open', async () => {
    for (let i = 0; i < 1000; i++)
      writeFileSync(
        join(app.dir, `bulk-${i}.ndjson`),
        `{"format":"nestor-journal","runId":"bulk-${i}"}\n{"key":"root#1:model","kind":"model","message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}\n`,
      )
    const step = defineTool({
      name: 'step',
      description: 'One step',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `step ${n} done`,
    })
    const provider = scripted((request) => {
      const done = request.messages.filter((m) => m.role === 'toolResult').length
      return done < 399
        ? { content: [{ type: 'toolCall', id: `call_${done}`, name: 'step', arguments: { n: done } }] }
        : 'all 400 turns done'
    })
    const runtime = new Runtime({ provider, model: 'scripted-long', maxIterations: 400 })
    const long = studio(runtime, { port: 0, recorded: fileJournals(app.dir) })
    const served = await long
    try {
      const run = runtime.exec('Take 400 turns', { tools: [step] as Tool[] })
      expect((await run).iterationsUsed).toBe(400)
      const page = await (await browser.newContext()).newPage()
      await page.goto(`${served.url}#live/${run.execId}`)
      await until(page, 'view')
      await until(page, 'listed')
      const { listedAt, view } = await state(page)
      expect(await page.locator('#recorded-runs li').count()).toBeGreaterThanOrEqual(1000)
      await page.click('.turns-fold > summary')
      await page.locator('.turns-fold[data-drawn]').waitFor(WAIT)
      expect(await page.locator('.turn').count()).toBe(400)
      // Where the time went: the page's own files, the server's answer for the lists, the event stream.
      const timing = await page.evaluate(() => {
        // Node's types have no DOM: the entries are read as plain records.
        type Entry = Record<string, number | string>
        const entries = (type: string) =>
          (performance as unknown as { getEntriesByType(type: string): Entry[] }).getEntriesByType(type)
        const span = (e: Entry | undefined) =>
          e ? `${Number(e.requestStart).toFixed(0)}→${Number(e.responseEnd).toFixed(0)}` : '?'
        const resource = (name: string) => entries('resource').find((r) => String(r.name).includes(name))
        return {
          ready: Number(entries('navigation')[0]?.domContentLoadedEventEnd).toFixed(0),
          overview: span(resource('api/overview')),
          events: span(resource('/events')),
        }
      })
      // The first view: both lists drawn and the open run's tree drawn whole (what the issue times).
      const first = Math.max(listedAt!, view!.drawnAt!)
      console.log(
        `studio timing: first view at ${first.toFixed(0)} ms after navigation (1,000 recorded runs listed at ${listedAt!.toFixed(0)} ms, a 400-turn run's ${view!.positions.length} events drawn whole at ${view!.drawnAt!.toFixed(0)} ms); page ready at ${timing.ready} ms, api/overview ${timing.overview} ms, events ${timing.events} ms (headless Chromium, load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
      )
    } finally {
      await served.close()
    }
  }, 120_000)
})
