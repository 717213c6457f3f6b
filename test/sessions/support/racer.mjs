// A process that runs one exec on a shared session, for the one-writer tests: it reads lines on
// stdin ("go": start the exec; "release": let its tool return) and prints JSON lines on stdout
// ({ holding: true } once its tool runs, then { status, code }).
// Environment: STORE (sqlite | postgres), STORE_AT (the file path or the connection string), SESSION, OWNER, NAME,
// WAIT=1 (wait for a busy session instead of failing).
import { createInterface } from 'node:readline'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { sqliteSessions } from '@nestor/sessions/sqlite'
import { postgresSessions } from '@nestor/sessions/postgres'
import { z } from 'zod'

const env = process.env
const say = (value) => process.stdout.write(`${JSON.stringify(value)}\n`)
const lines = createInterface({ input: process.stdin })
const waiting = new Map()
lines.on('line', (line) => waiting.get(line.trim())?.())
const heard = (word) => new Promise((resolve) => waiting.set(word, resolve))

const store =
  env.STORE === 'sqlite' ? sqliteSessions({ path: env.STORE_AT }) : postgresSessions({ connectionString: env.STORE_AT })
const hold = defineTool({
  name: 'hold',
  description: 'holds the session until told',
  parameters: z.object({}),
  execute: async () => {
    say({ holding: true })
    await heard('release')
    return 'released'
  },
})
const provider = scripted([
  { content: [{ type: 'toolCall', id: `call_${env.NAME}`, name: 'hold', arguments: {} }] },
  `${env.NAME} done`,
])
const runtime = new Runtime({ provider, model: 'm', sessions: store })
say({ ready: true })
await heard('go')
const result = await runtime.exec(`hello from ${env.NAME}`, {
  tools: [hold],
  session: { id: env.SESSION, owner: env.OWNER, wait: env.WAIT === '1' },
})
// The message goes to stderr (the test's output), so a failure other than the one expected explains itself.
if (result.error) process.stderr.write(`racer ${env.NAME}: ${result.error.code}: ${result.error.message}\n`)
say({ status: result.status, code: result.error?.code ?? null, requests: provider.requests.length })
await store.close()
lines.close()
