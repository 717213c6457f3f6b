import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, exec, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { evaluate, scorers, writeHtmlReport, type EvalReport } from '@nestor/evals'
import { z } from 'zod'
import trips from '../../../examples/evals/trips.eval.js'
import { CHROMIUM, hasChromium, WAIT } from '../../support/browser-app.js'

const OUTPUT = fileURLToPath(new URL('../../../test-results/evals/', import.meta.url))
// A file of @nestor/web's browser folder, where the evals package finds it.
const component = (name: string) =>
  join(dirname(createRequire(import.meta.url).resolve('@nestor/web/package.json')), 'src/browser', name)
const text = (messages: Message[]) => messages.flatMap((m) => (m.role === 'toolResult' ? [m] : []))

// A planner whose `research` tool opens a nested exec that calls `notes`: a tree two execs deep.
function planner(city: (input: string) => string) {
  const notes = defineTool({
    name: 'notes',
    description: 'Notes',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => `${q}: sunny, <b>21 °C</b>`,
  })
  const research = defineTool({
    name: 'research',
    description: 'Research',
    parameters: z.object({ q: z.string() }),
    execute: async ({ q }) => (await exec(`research ${q}`, { tools: [notes] })).text,
  })
  const provider = scripted((request) => {
    const user = request.messages.find((m) => m.role === 'user')!
    const input = String(user.content)
    const done = text(request.messages)
    if (input.startsWith('research ')) {
      if (done.length === 0)
        return { content: [{ type: 'toolCall', id: 'call_n', name: 'notes', arguments: { q: input.slice(9) } }] }
      return `found: ${done[0]!.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`
    }
    if (done.length === 0)
      return { content: [{ type: 'toolCall', id: 'call_r', name: 'research', arguments: { q: city(input) } }] }
    return `Plan for ${city(input)}. ${done[0]!.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}`
  })
  return { runtime: new Runtime({ provider, model: 'scripted-planner' }), tools: [research] }
}

const data = ['Lisbon', 'Porto', 'Faro'].map((c) => ({ id: c.toLowerCase(), input: `Plan ${c}`, expected: c }))
const run = (city: (input: string) => string, baseline?: Awaited<ReturnType<typeof evaluate>>) => {
  const agent = planner(city)
  return evaluate({
    name: 'trips',
    data,
    task: (input, ctx) => agent.runtime.exec(input as string, { tools: agent.tools, signal: ctx.signal }),
    scorers: [scorers.includes(), scorers.toolCalls(['research', 'notes'], { order: true })],
    ...(baseline ? { baseline } : {}),
  })
}

/** The report written as a page, and a headless Chromium page to open it in. */
async function openable(report: EvalReport) {
  const file = join(mkdtempSync(join(tmpdir(), 'evals-html-')), 'trips.html')
  await writeHtmlReport(report, file)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  return { file, browser, page: await browser.newPage({ viewport: { width: 1200, height: 900 } }) }
}

describe.skipIf(!hasChromium)('the HTML report in headless Chromium', () => {
  it('loads from a file with no request, shows the summary and the regression, sorts by a score and opens a case tree two deep', async () => {
    const before = await run((input) => input.slice(5))
    // Porto regresses: the planner now plans Lisbon for it.
    const after = await run((input) => (input === 'Plan Porto' ? 'Lisbon' : input.slice(5)), before)
    expect(after.passed).toBe(false)
    const { file, browser, page } = await openable(after)
    try {
      const requests: string[] = []
      page.on('request', (r) => requests.push(r.url()))
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      // The tree is the studio's one component: its script and style are in the page as they are.
      const html = readFileSync(file, 'utf8')
      for (const name of ['exec-tree.js', 'exec-tree.css'])
        expect(html).toContain(readFileSync(component(name), 'utf8'))
      await page.goto(pathToFileURL(file).href)
      await page.locator('#cases tr.case').first().waitFor(WAIT)
      expect(errors).toEqual([])
      // Self-contained: the page itself is the only thing it loads.
      expect(requests).toEqual([pathToFileURL(file).href])

      expect(await page.textContent('#verdict')).toBe('failed')
      expect(await page.textContent('#problems')).toContain('includes mean fell from 100% to 66.7%')
      expect(await page.textContent('#scorers')).toContain('(-0.333)')
      expect(await page.locator('#cases tr.case').count()).toBe(3)

      const order = () =>
        page.locator('#cases tr.case').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case-id')))
      expect(await order()).toEqual(['faro', 'lisbon', 'porto'])
      await page.click('th[data-sort="score:includes"]')
      expect((await order())[0]).toBe('porto')
      expect(await page.getAttribute('th[data-sort="score:includes"]', 'aria-sort')).toBe('ascending')
      await page.click('th[data-sort="score:includes"]')
      expect((await order())[2]).toBe('porto')
      expect(await page.locator('tr.case[data-case-id="porto"] td.score[data-pass="false"] .delta-down').count()).toBe(
        1,
      )

      // A case row opens its exec tree, drawn by @nestor/web's component (the studio's): the root's
      // research call holds the exec its body opened (depth 1), whose notes call holds its arguments.
      await page.click('tr.case[data-case-id="lisbon"]')
      const tree = page.locator('tr.case[data-case-id="lisbon"] + tr.detail')
      const child = tree.locator('details.exec[data-depth="0"] > ol.steps > li.tool > details.exec[data-depth="1"]')
      await child.waitFor(WAIT)
      expect(
        await tree.locator('details.exec[data-depth="0"] > ol.steps > li.tool > .tool-head').textContent(),
      ).toMatch(/^✓ research · \d+ ms · ok$/)
      expect(await child.locator('> summary').textContent()).toMatch(/^research \(depth 1\) completed · \d+ tokens/)
      const notes = child.locator('> ol.steps > li.tool')
      expect(await notes.locator('.tool-head').textContent()).toMatch(/^✓ notes · \d+ ms · ok$/)
      // Its arguments, drawn when their fold opens.
      const args = notes.locator('details.fold:not(.result):not(.receipt)')
      await args.locator('> summary').click()
      expect(JSON.parse((await args.locator('> pre').textContent())!)).toEqual({ q: 'Lisbon' })
      expect(await notes.locator('.result').getAttribute('data-result')).toBe('Lisbon: sunny, <b>21 °C</b>')
      expect(await tree.locator('details.exec[data-depth="1"] .exec-text').first().textContent()).toContain(
        '<b>21 °C</b>',
      )
      expect(await tree.locator('b').count()).toBe(0)

      mkdirSync(OUTPUT, { recursive: true })
      await page.click('tr.case[data-case-id="porto"]')
      await page.screenshot({ path: join(OUTPUT, 'evals-report.png'), fullPage: true })
    } finally {
      await browser.close()
    }
  }, 120_000)
  it("draws the worked example's report (the screenshot in docs/evals.md)", async () => {
    const { provider: _live, ...offline } = trips
    const report = await evaluate({ ...offline, cassettes: { dir: trips.cassettes as string, mode: 'replay' } })
    const { file, browser, page } = await openable(report)
    try {
      await page.goto(pathToFileURL(file).href)
      await page.click('th[data-sort="score:judge"]')
      await page.click('tr.case[data-case-id="porto"]')
      await page.locator('tr.case[data-case-id="porto"] + tr.detail details.exec[data-depth="1"]').first().waitFor(WAIT)
      expect(await page.textContent('#verdict')).toBe('passed')
      expect(await page.locator('#cases tr.case').count()).toBe(10)
      mkdirSync(OUTPUT, { recursive: true })
      await page.screenshot({ path: join(OUTPUT, 'trips-report.png'), fullPage: true })
    } finally {
      await browser.close()
    }
  }, 120_000)
})
