import { toBedrockToolChoice } from '@nestor/providers'
import { describe, expect, it } from 'vitest'

describe('toBedrockToolChoice', () => {
  it('maps auto to { auto: {} } and required to { any: {} }', () => {
    expect(toBedrockToolChoice('auto')).toEqual({ toolChoice: { auto: {} } })
    expect(toBedrockToolChoice('required')).toEqual({ toolChoice: { any: {} } })
  })

  it('maps a named function to { tool: { name } }', () => {
    expect(toBedrockToolChoice({ type: 'function', name: 'get_weather' })).toEqual({
      toolChoice: { tool: { name: 'get_weather' } },
    })
  })

  it('emulates none by omitting the tools when the history has no tool blocks', () => {
    expect(toBedrockToolChoice('none')).toEqual({ omitTools: true })
    expect(toBedrockToolChoice('none', { hasToolHistory: false })).toEqual({ omitTools: true })
  })

  it('keeps the tool config with auto for none when the history has tool blocks (Converse requires it)', () => {
    expect(toBedrockToolChoice('none', { hasToolHistory: true })).toEqual({ toolChoice: { auto: {} } })
  })

  it('sends nothing for no choice, leaving Converse its default', () => {
    expect(toBedrockToolChoice(undefined)).toEqual({})
    expect(toBedrockToolChoice(undefined, { hasToolHistory: true })).toEqual({})
  })

  it('ignores the tool history for every choice but none', () => {
    for (const choice of ['auto', 'required', { type: 'function', name: 'x' }] as const) {
      expect(toBedrockToolChoice(choice, { hasToolHistory: true })).toEqual(toBedrockToolChoice(choice))
    }
  })
})
