import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { collect } from '../support/run.js'

const SECRET = 'sk-live-0123456789abcdef'

describe('streamed redaction', () => {
  it('a secret the model streams across several deltas never appears, whole or in part, and the deltas join to the redacted text', async () => {
    const text = `Your key is ${SECRET}, keep it safe. Also s-k and sk- are fine.`
    const provider = scripted([text], { chunkSize: 3 })
    const { events, result } = await collect(new Runtime({ provider, model: 'm', secrets: [SECRET] }).exec('go'))
    const deltas = events.flatMap((e) => (e.type === 'message_delta' && e.delta.kind === 'text' ? [e.delta.text] : []))
    expect(deltas.length).toBeGreaterThan(10)
    const joined = deltas.join('')
    expect(joined).toBe(text.replace(SECRET, '[REDACTED]'))
    for (const delta of deltas) {
      for (let k = 6; k <= SECRET.length; k++) expect(delta.includes(SECRET.slice(0, k))).toBe(false)
    }
    const end = events.find((e) => e.type === 'message_end' && e.message.role === 'assistant')
    expect(JSON.stringify(end)).not.toContain(SECRET)
    // The real history keeps what the model said: it is the caller's, not an event.
    expect(result.text).toBe(text)
  })

  it('tool-call argument fragments are guarded the same way, and text before a call is released first', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'd',
      parameters: z.object({ v: z.string() }),
      execute: () => 'ok',
    })
    const provider = scripted(
      [
        {
          content: [
            { type: 'text', text: 'calling sk-li' },
            { type: 'toolCall', name: 'echo', arguments: { v: SECRET } },
          ],
        },
        'done',
      ],
      { chunkSize: 4 },
    )
    const { events } = await collect(
      new Runtime({ provider, model: 'm', secrets: [SECRET] }).exec('go', { tools: [echo] }),
    )
    const firstTurn = events.slice(
      0,
      events.findIndex((e) => e.type === 'tool_start'),
    )
    const deltas = firstTurn.flatMap((e) => (e.type === 'message_delta' ? [e.delta] : []))
    const text = deltas.flatMap((d) => (d.kind === 'text' ? [d.text] : [])).join('')
    const args = deltas.flatMap((d) => (d.kind === 'toolCall' ? [d.argumentsDelta] : [])).join('')
    expect(text).toBe('calling sk-li')
    expect(args).toBe('{"v":"[REDACTED]"}')
    // Order: all text deltas come before the first tool-call delta.
    const lastText = deltas.findLastIndex((d) => d.kind === 'text')
    const firstCall = deltas.findIndex((d) => d.kind === 'toolCall')
    expect(lastText).toBeLessThan(firstCall)
    for (const e of events) expect(JSON.stringify(e)).not.toContain(SECRET)
  })
})
