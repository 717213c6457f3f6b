import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'
import { createWebApp, listen, type WebApp, type WebAppOptions } from '../../examples/web/server.js'

// Debian's chromium (installed by .ci/run when missing); playwright-core never downloads a browser.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const hasChromium = existsSync(CHROMIUM)
// Waits are on conditions, with room for a loaded 2-core machine.
export const WAIT = { timeout: 60_000 }

export type BrowserApp = {
  app: WebApp
  url: string
  browser: Browser
  /** A fresh browser context (its own cookies: another user), closed with the app. */
  newContext(options?: Parameters<Browser['newContext']>[0]): Promise<BrowserContext>
  /** Stops the server and starts a new app with `options` on the same address (the pages stay open). */
  restart(options: WebAppOptions): Promise<void>
  close(): Promise<void>
}

/** The web example on a free port and headless Chromium to drive it. */
export async function browserApp(options: WebAppOptions): Promise<BrowserApp> {
  let app = createWebApp(options)
  const url = await listen(app, 0)
  const stop = async () => {
    app.server.closeAllConnections()
    await new Promise((resolve) => app.server.close(resolve))
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  })
  const contexts: BrowserContext[] = []
  return {
    get app() {
      return app
    },
    url,
    browser,
    newContext: async (contextOptions) => {
      const context = await browser.newContext(contextOptions)
      contexts.push(context)
      return context
    },
    restart: async (next) => {
      await stop()
      app = createWebApp(next)
      // The same port: the pages' origin (and so their local storage) stays the same.
      await listen(app, Number(new URL(url).port))
    },
    close: async () => {
      for (const context of contexts) await context.close()
      await browser.close()
      await stop()
    },
  }
}
