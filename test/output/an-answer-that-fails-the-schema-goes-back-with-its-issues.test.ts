import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { historyProblems } from '../support/run.js'

const City = z.object({ city: z.string(), population: z.number().int().positive() })

const userTexts = (messages: { role: string; content: unknown }[]) =>
  messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))

describe('an answer that does not match the output schema', () => {
  it('goes back to the model with its issues, twice, and the third answer is the output', async () => {
    const provider = scripted([
      'Lisbon, about half a million people',
      '{"city":"Lisbon","population":"545k"}',
      '{"city":"Lisbon","population":545000}',
    ])
    const runtime = new Runtime({ provider, model: 'm' })
    const result = await runtime.exec('Which city?', { output: City })

    expect(result.status).toBe('completed')
    expect(result.output).toEqual({ city: 'Lisbon', population: 545000 })
    expect(provider.requests).toHaveLength(3)
    const second = userTexts(provider.requests[1]!.messages)
    expect(second.at(-1)).toContain('not valid JSON')
    const third = userTexts(provider.requests[2]!.messages)
    expect(third.at(-1)).toContain('population')
    expect(result.iterationsUsed).toBe(3)
    expect(historyProblems(result.history)).toEqual([])
  })

  it('fails invalid_output after exactly 1 + outputRetries calls, keeping the issues, the raw text and the history', async () => {
    for (const outputRetries of [0, 1, 2]) {
      const provider = scripted(() => '{"city":42}')
      const runtime = new Runtime({ provider, model: 'm' })
      const result = await runtime.exec('Which city?', { output: City, outputRetries })
      expect(provider.requests).toHaveLength(1 + outputRetries)
      expect(result.status).toBe('failed')
      expect(result.error?.code).toBe('invalid_output')
      expect(result.error?.issues?.join('\n')).toMatch(/city/)
      expect(result.error?.text).toBe('{"city":42}')
      expect(result.output).toBeUndefined()
      expect(result.text).toBe('{"city":42}')
      expect(result.messages.filter((m) => m.role === 'assistant')).toHaveLength(1 + outputRetries)
    }
  })

  it('defaults to two retries', async () => {
    const provider = scripted(() => 'no json here')
    const result = await new Runtime({ provider, model: 'm' }).exec('Which city?', { output: City })
    expect(result.error?.code).toBe('invalid_output')
    expect(provider.requests).toHaveLength(3)
  })

  it('accepts an answer fenced as a JSON code block', async () => {
    const provider = scripted(['```json\n{"city":"Porto","population":230000}\n```'])
    const result = await new Runtime({ provider, model: 'm' }).exec('Which city?', { output: City })
    expect(result.output).toEqual({ city: 'Porto', population: 230000 })
  })

  it('validates a raw JSON Schema output too', async () => {
    const schema = {
      type: 'object',
      properties: { ok: { type: 'boolean' } },
      required: ['ok'],
      additionalProperties: false,
    }
    const provider = scripted(['{"ok":"yes"}', '{"ok":true}'])
    const result = await new Runtime({ provider, model: 'm' }).exec('Ok?', { output: schema })
    expect(result.output).toEqual({ ok: true })
    expect(userTexts(provider.requests[1]!.messages).at(-1)).toContain('/ok')
  })
})
