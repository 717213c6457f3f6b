import { defineTool, exec, type Tool } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted } from '@nestor/providers'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

// A booking desk one exec deep asks the person for a nightly budget: the page shows the question
// as a form (from its JSON Schema), a bad answer comes back with its issues, a good one goes on.

const firstUser = (r: ModelRequest) => {
  const first = r.messages.find((m) => m.role === 'user')
  return typeof first?.content === 'string' ? first.content : ''
}
const results = (r: ModelRequest) =>
  r.messages.flatMap((m) => (m.role === 'toolResult' ? m.content.map((c) => (c.type === 'text' ? c.text : '')) : []))

const provider = scripted((r: ModelRequest) => {
  const seen = results(r)
  if (firstUser(r) === 'find a room')
    return seen.length
      ? `desk: ${seen.join()}`
      : { content: [{ type: 'toolCall', id: 'call_room', name: 'room', arguments: {} }] }
  return seen.length
    ? `Booked: ${seen.join()}`
    : { content: [{ type: 'toolCall', id: 'call_desk', name: 'desk', arguments: {} }] }
})

function tools(): Tool[] {
  const room = defineTool({
    name: 'room',
    description: 'Finds a room within the budget',
    parameters: z.object({}),
    execute: async (_args, ctx) => {
      const budget = await ctx.ask(
        'What is your budget per night?',
        z.object({ eur: z.number().positive().describe('Euros per night'), breakfast: z.boolean() }),
      )
      return `a room at ${budget.eur} EUR${budget.breakfast ? ' with breakfast' : ''}`
    },
  })
  const desk = defineTool({
    name: 'desk',
    description: 'The booking desk',
    parameters: z.object({}),
    execute: async () => (await exec('find a room', { tools: [room] })).text,
  })
  return [desk] as unknown as Tool[]
}

const api = (page: Page, path: string, body?: unknown) =>
  page.evaluate(
    `fetch(${JSON.stringify(path)}, ${JSON.stringify(body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })}).then(async (r) => ({ status: r.status, body: await r.json() }))`,
  ) as Promise<{ status: number; body: { inputs?: { id: string }[]; error?: { code: string } } }>

describe.skipIf(!hasChromium)('a question in the web example', () => {
  let web: BrowserApp
  beforeAll(async () => {
    web = await browserApp({ provider, model: 'm', tools })
  }, 120_000)
  afterAll(async () => web?.close())

  it('shows a form, refuses a bad answer with its issues, takes a good one from its owner only', async () => {
    const page = await (await web.newContext()).newPage()
    await page.goto(web.url)
    await page.fill('#prompt', 'Book me a room')
    await page.click('#send')
    const form = page.locator('form.question')
    await form.waitFor(WAIT)
    await expect(form.locator('strong').textContent()).resolves.toBe('What is your budget per night?')
    const execId = (await page.evaluate('window.__nestor.execId')) as string
    const { body } = await api(page, `/api/runs/${execId}`)
    const id = body.inputs?.[0]?.id as string
    expect(await form.getAttribute('data-input-id')).toBe(id)

    // Another browser (another session) cannot answer: 404, as for a run it does not know.
    const stranger = await (await web.newContext()).newPage()
    await stranger.goto(web.url)
    const refused = await api(stranger, `/api/runs/${execId}/answer`, { id, value: { eur: 90, breakfast: true } })
    expect(refused).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } })

    // Sent without the amount: the schema refuses it, the form says why and stays.
    await page.check('form.question input[name="breakfast"]')
    await page.click('form.question button.answer')
    await expect(page.locator('form.question .meta').filter({ hasText: 'eur' }).waitFor(WAIT)).resolves.toBeUndefined()

    await page.fill('form.question input[name="eur"]', '95')
    await page.click('form.question button.answer')
    await page.locator('#final[data-status="completed"]').waitFor(WAIT)
    await expect(page.locator('#final').textContent()).resolves.toBe('Booked: desk: a room at 95 EUR with breakfast')
    expect(await page.locator('form.question').count()).toBe(0)
  }, 180_000)
})
