import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { NestorError, Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'

const t = (name: string) => defineTool({ name, description: name, parameters: z.object({}), execute: () => name })

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn()
  } catch (error) {
    return NestorError.isInstance(error) ? error.code : 'not a NestorError'
  }
  return undefined
}

describe('invalid options', () => {
  const provider = scripted(['x'])
  const runtime = new Runtime({ provider, model: 'm' })

  it('duplicate tool names are invalid_options before any request', () => {
    expect(codeOf(() => runtime.exec('go', { tools: [t('a'), t('a')] }))).toBe('invalid_options')
    expect(provider.requests).toHaveLength(0)
  })

  it('a toolChoice naming an unknown tool is invalid_options naming the option', () => {
    let message = ''
    try {
      void runtime.exec('go', { tools: [t('a')], toolChoice: { type: 'function', name: 'b' } })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('toolChoice')
    expect(message).toContain('b')
    expect(provider.requests).toHaveLength(0)
  })

  it('rejects malformed runtime options with the option named', () => {
    expect(codeOf(() => new Runtime({ provider, model: '' }))).toBe('invalid_options')
    expect(codeOf(() => new Runtime({ provider, model: 'm', toolExecution: 'fast' as never }))).toBe('invalid_options')
    expect(codeOf(() => new Runtime({ provider, model: 'm', maxToolConcurrency: 0 }))).toBe('invalid_options')
    expect(codeOf(() => new Runtime({ provider, model: 'm', breakerThreshold: -2 }))).toBe('invalid_options')
    expect(codeOf(() => runtime.exec('go', { toolChoice: 'sometimes' as never }))).toBe('invalid_options')
    expect(codeOf(() => runtime.exec('go', { toolset: 'some' as never }))).toBe('invalid_options')
  })

  it('an invalid tool name is rejected when the tool is defined', () => {
    expect(codeOf(() => t('has space'))).toBe('invalid_options')
  })
})
