import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserApp, hasChromium, WAIT, type BrowserApp } from '../../support/browser-app.js'

type Answer = { status: number; body: { position?: number; pending?: unknown[]; runs?: unknown[] } }
const get = (page: Page, path: string) =>
  page.evaluate(
    `fetch(${JSON.stringify(path)}).then(async (r) => ({ status: r.status, body: await r.json() }))`,
  ) as Promise<Answer>

/** What a page on another origin can send with the user's cookies and no preflight: forms and no-cors fetches. */
const hostilePage = (app: string, execId: string) => `<!doctype html><html><body>
<iframe name="sink"></iframe>
<form id="steer" method="POST" enctype="text/plain" target="sink" action="${app}api/runs/${execId}/steer">
  <input name='{"message":"csrf says hi","x":"' value='"}'>
</form>
<script>
  const send = (path, type, body) =>
    fetch('${app}' + path, { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': type }, body }).catch(() => {})
  window.done = Promise.all([
    send('api/runs', 'text/plain', '{"input":"csrf run"}'),
    send('api/runs/${execId}/abort', 'text/plain', '{"reason":"csrf"}'),
    send('api/runs/${execId}/approve', 'application/x-www-form-urlencoded', 'toolCallId=call_save'),
    send('api/runs/${execId}/reject', 'multipart/form-data; boundary=x', '--x--'),
    // A JSON POST needs a CORS preflight, which the app never grants: the browser does not send it.
    fetch('${app}api/runs/${execId}/abort', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' }).then(() => 'sent', () => 'blocked'),
  ])
  document.getElementById('steer').submit()
</script></body></html>`

describe.skipIf(!hasChromium)('a hostile page on another origin, in the browser of a signed-in user', () => {
  let web: BrowserApp
  let hostile: ReturnType<typeof createServer>
  let hostileUrl: string
  let page = ''
  const arrived: { method: string; url: string; cookie: boolean; type: string; status: number }[] = []

  beforeAll(async () => {
    web = await browserApp({ paceMs: 2, heartbeatMs: 2_000 })
    web.app.server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      res.on('finish', () =>
        arrived.push({
          method: req.method ?? '',
          url: req.url ?? '',
          cookie: Boolean(req.headers.cookie),
          type: String(req.headers['content-type'] ?? ''),
          status: res.statusCode,
        }),
      ),
    )
    hostile = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(page))
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
    const address = hostile.address()
    hostileUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
  }, 120_000)

  afterAll(async () => {
    await web?.close()
    hostile?.closeAllConnections()
    await new Promise((resolve) => hostile?.close(resolve))
  })

  it('its forms and no-cors POSTs reach the app with the cookie and get 415; the JSON one is never sent; the run goes on untouched', async () => {
    const context = await web.newContext()
    const user = await context.newPage()
    await user.goto(web.url)
    await user.fill('#prompt', 'Plan 3 days in Lisbon in May for two with a €900 budget')
    await user.click('#send')
    await user.locator('.approval button.approve').waitFor(WAIT)
    const execId = ((await user.evaluate('window.__nestor')) as { execId: string }).execId
    const before = await get(user, `/api/runs/${execId}`)

    page = hostilePage(web.url, execId)
    const attacker = await context.newPage()
    await attacker.goto(hostileUrl)
    const outcomes = (await attacker.evaluate('window.done')) as unknown[]
    expect(outcomes.at(-1)).toBe('blocked')
    // The form's POST and the four fetches all arrived, cookie included (another port is the same site).
    const sent = () => arrived.filter((r) => r.method === 'POST' && r.type !== 'application/json' && r.cookie)
    for (let i = 0; i < 600 && sent().length < 5; i++) await new Promise((r) => setTimeout(r, 50))
    expect(sent().map((r) => r.status)).toEqual([415, 415, 415, 415, 415])
    expect(
      sent()
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/api/runs', ...['abort', 'approve', 'reject', 'steer'].map((a) => `/api/runs/${execId}/${a}`)].sort())
    expect(arrived.some((r) => r.method === 'POST' && r.type === 'application/json' && r.url.endsWith('/abort'))).toBe(
      false,
    )

    // Nothing changed: the same position, the same call waiting, no second run.
    expect(await get(user, `/api/runs/${execId}`)).toEqual(before)
    expect((await get(user, '/api/runs')).body.runs).toHaveLength(1)
    await user.click('.approval button.approve')
    await user.locator('#final[data-status="completed"]').waitFor(WAIT)
    await expect(user.locator('#transcript').textContent()).resolves.not.toContain('csrf')
  }, 180_000)
})
