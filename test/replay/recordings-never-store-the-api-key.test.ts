import { execFileSync } from 'node:child_process'
import { Runtime, defineTool } from '@nestor/core'
import { openai, replay } from '@nestor/providers'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { nativeToolCall, textAnswer } from './chat-sse.js'
import { filesIn, tempDir } from '../support/cassette-files.js'

const KEY = 'sk-nestor-cassette-secret-7f3a9c'

describe('replay recordings never store the API key or the auth header', () => {
  let wire: WireServer | undefined
  afterEach(async () => {
    await wire?.close()
    wire = undefined
  })

  it('a recorded exec (tool call, result, answer echoing the key) leaves no trace of the key in any file', async () => {
    wire = await startWireServer()
    wire.enqueue(
      { body: nativeToolCall('call_lookup', 'lookup', [`{"q":"${KEY}"}`]) },
      { body: textAnswer(['Your key is ', KEY.slice(0, 10), KEY.slice(10), '.']) },
    )
    const dir = await tempDir()
    const lookup = defineTool({
      name: 'lookup',
      description: 'Look up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `found ${q}`,
    })
    const provider = replay({
      provider: openai({ baseURL: `${wire.url}/v1`, apiKey: KEY, maxRetries: 0 }),
      dir,
      mode: 'record',
    })
    const result = await new Runtime({ provider, model: 'gpt-4o-mini' }).exec(`remember ${KEY}`, { tools: [lookup] })
    expect(result.status).toBe('completed')
    // The key really went over the wire, in the Authorization header: there was something to leak.
    expect(wire.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`)

    const files = await filesIn(dir)
    expect(files).toHaveLength(2)
    for (const file of files) {
      expect(file.text).not.toContain(KEY)
      expect(file.text).not.toContain(`Bearer ${KEY}`)
      expect(file.text.toLowerCase()).not.toContain('authorization')
      expect(file.text).toContain('[REDACTED]')
    }
    // The same check the way a reviewer would make it: grep the folder.
    const grep = (pattern: string) => {
      try {
        return execFileSync('grep', ['-rl', pattern, dir], { encoding: 'utf8' })
      } catch {
        return ''
      }
    }
    expect(grep(KEY)).toBe('')
    expect(grep('Bearer')).toBe('')
  })

  it('also redacts the extra secrets it is given (a runtime secret echoed by the model)', async () => {
    const dir = await tempDir()
    const { scripted } = await import('@nestor/providers')
    const provider = replay({
      provider: scripted(['the db password is hunter2-db-pass']),
      dir,
      mode: 'record',
      secrets: ['hunter2-db-pass'],
    })
    await new Runtime({ provider, model: 'm' }).exec('password?', { tools: [] })
    const [file] = await filesIn(dir)
    expect(file?.text).not.toContain('hunter2-db-pass')
    expect(file?.text).toContain('the db password is [REDACTED]')
  })
})
