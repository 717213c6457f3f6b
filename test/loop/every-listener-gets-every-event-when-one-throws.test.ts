import { Runtime } from '@nestor/core'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { text, useOpenAIWire } from '../support/openai-loop-wire.js'

const PIECES = 300

describe('every listener gets every event when one throws', () => {
  const wire = useOpenAIWire()
  const warnings: string[] = []
  const onWarning = (warning: Error) => warnings.push(warning.message)
  beforeEach(() => {
    warnings.length = 0
    process.on('warning', onWarning)
  })
  afterEach(() => {
    process.off('warning', onWarning)
  })

  it('listeners after a throwing one, and the * listeners, get every delta', async () => {
    wire.server.enqueue({ body: text(...Array.from({ length: PIECES }, (_, i) => `w${i} `)), chunkSize: 4096 })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    let later = 0
    let star = 0
    runtime.on('message_delta', () => {
      throw new Error('listener bug')
    })
    runtime.on('message_delta', () => later++)
    runtime.on('*', (event) => {
      if (event.type === 'message_delta') star++
    })
    const result = await runtime.exec('talk')
    expect(result.status).toBe('completed')
    expect(later).toBe(PIECES)
    expect(star).toBe(PIECES)
  })

  it('a listener that throws on every delta, or rejects, is reported once per listener', async () => {
    wire.server.enqueue({ body: text(...Array.from({ length: PIECES }, (_, i) => `w${i} `)), chunkSize: 4096 })
    const runtime = new Runtime({ provider: wire.provider(), model: 'gpt-4o-mini' })
    runtime.on('message_delta', () => {
      throw new Error('sync listener bug')
    })
    runtime.on('message_delta', async () => {
      throw new Error('async listener bug')
    })
    await runtime.exec('talk')
    await new Promise((r) => setTimeout(r, 20))
    const reports = warnings.filter((w) => w.includes('listener'))
    expect(reports.filter((w) => w.includes('sync listener bug') && !w.includes('async'))).toHaveLength(1)
    expect(reports.filter((w) => w.includes('async listener bug'))).toHaveLength(1)
    expect(reports).toHaveLength(2)
  })
})
