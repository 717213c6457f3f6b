import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { NestorError, Runtime, defineTool, type JSONSchema } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { resultText, toolResults } from '../support/tool-results.js'

/** Runs one model-made call of a raw-schema tool; returns the tool result text and whether the body ran. */
async function callWith(
  parameters: JSONSchema,
  args: Record<string, unknown>,
): Promise<{ text: string; ran: boolean }> {
  let ran = false
  const send = defineTool({ name: 'send', description: 'Send', parameters, execute: () => ((ran = true), 'sent') })
  const runtime = new Runtime({ provider: scripted([calls({ name: 'send', args }), 'done']), model: 'm' })
  const result = await runtime.exec('go', { tools: [send] })
  return { text: resultText(toolResults(result)[0]!), ran }
}

describe('raw JSON Schema parameters', () => {
  const printed: unknown[][] = []
  beforeEach(() => {
    printed.length = 0
    for (const method of ['log', 'warn', 'error', 'info', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args))
    }
  })
  afterEach(() => vi.restoreAllMocks())

  it('format "email" is checked: { to: "not-an-email" } is an error result and the body does not run', async () => {
    const { text, ran } = await callWith(
      { type: 'object', properties: { to: { type: 'string', format: 'email' } }, required: ['to'] },
      { to: 'not-an-email' },
    )
    expect(ran).toBe(false)
    expect(text).toContain('/to')
    expect(text).toContain('email')
  })

  it.each([
    ['date-time', { at: 'yesterday' }, { at: '2026-11-30T10:00:00Z' }],
    ['uri', { at: 'not a uri' }, { at: 'https://example.com/x' }],
    ['uuid', { at: '1234' }, { at: '5f1d7a7e-3c1b-4f7e-9a3d-2b8c1e0f4a6d' }],
  ])('format %s rejects a bad value and accepts a good one', async (format, bad, good) => {
    const schema: JSONSchema = { type: 'object', properties: { at: { type: 'string', format } } }
    expect((await callWith(schema, bad)).ran).toBe(false)
    expect((await callWith(schema, good)).ran).toBe(true)
  })

  it('draft 2020-12 keywords are enforced (prefixItems, dependentRequired)', async () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }] },
        card: { type: 'string' },
        cvc: { type: 'string' },
      },
      dependentRequired: { card: ['cvc'] },
    }
    expect((await callWith(schema, { pair: ['x', 'y'] })).ran).toBe(false)
    expect((await callWith(schema, { card: '4242' })).ran).toBe(false)
    expect((await callWith(schema, { pair: [1, 'y'], card: '4242', cvc: '123' })).ran).toBe(true)
  })

  it('an unknown format and an unknown keyword print nothing to the console', async () => {
    const schema: JSONSchema = {
      type: 'object',
      properties: { code: { type: 'string', format: 'acme-sku', 'x-note': 'internal' } },
    }
    expect((await callWith(schema, { code: 'A-1' })).ran).toBe(true)
    expect(printed).toEqual([])
  })

  it('a schema that is not valid JSON Schema (an unknown type) fails invalid_options at defineTool', () => {
    let error: unknown
    try {
      defineTool({
        name: 'send',
        description: 'Send',
        parameters: { type: 'object', properties: { a: { type: 'no-such-type' } } },
        execute: () => '',
      })
    } catch (thrown) {
      error = thrown
    }
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
  })
})
