import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const runtime = new Runtime({ provider: scripted(['{}']), model: 'm' })

describe('output options', () => {
  it('refuse a schema whose root is not an object, synchronously', () => {
    expect(() => runtime.exec('x', { output: z.array(z.string()) })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('output') }),
    )
    expect(() => runtime.exec('x', { output: z.string() })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    )
    expect(() => runtime.exec('x', { output: { type: 'array' } })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    )
  })

  it('refuse an outputRetries that is not an integer in 0..10, or one without output', () => {
    for (const bad of [-1, 1.5, 11, '2']) {
      expect(() => runtime.exec('x', { output: z.object({}), outputRetries: bad as number })).toThrow(
        expect.objectContaining({ code: 'invalid_options', message: expect.stringContaining('outputRetries') }),
      )
    }
    expect(() => runtime.exec('x', { outputRetries: 1 })).toThrow(expect.objectContaining({ code: 'invalid_options' }))
  })

  it('refuse an output that is not a schema object', () => {
    expect(() => runtime.exec('x', { output: 'json' as unknown as object })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    )
  })
})
