import type { ToolChoice } from '@nestor/core'
import { toOpenAIToolChoice } from '@nestor/providers/openai'
import { describe, expect, it } from 'vitest'

const named: ToolChoice = { type: 'function', name: 'get_weather' }
const parallelKnob = [undefined, true, false] as const
const parallelField = (p: boolean | undefined) => (p === undefined ? {} : { parallel_tool_calls: p })

describe('toOpenAIToolChoice', () => {
  describe('chat completions shape', () => {
    for (const parallelToolCalls of parallelKnob) {
      it(`maps auto, required and none to the same strings (parallel ${parallelToolCalls})`, () => {
        for (const choice of ['auto', 'required', 'none'] as const) {
          expect(toOpenAIToolChoice(choice, { parallelToolCalls })).toEqual({
            tool_choice: choice,
            ...parallelField(parallelToolCalls),
          })
          expect(toOpenAIToolChoice(choice, { parallelToolCalls, api: 'chat' })).toEqual({
            tool_choice: choice,
            ...parallelField(parallelToolCalls),
          })
        }
      })

      it(`wraps a named function in { type, function: { name } } (parallel ${parallelToolCalls})`, () => {
        expect(toOpenAIToolChoice(named, { parallelToolCalls })).toEqual({
          tool_choice: { type: 'function', function: { name: 'get_weather' } },
          ...parallelField(parallelToolCalls),
        })
      })

      it(`leaves tool_choice out when no choice is given (parallel ${parallelToolCalls})`, () => {
        expect(toOpenAIToolChoice(undefined, { parallelToolCalls })).toEqual(parallelField(parallelToolCalls))
      })
    }

    it('defaults to the chat shape without options', () => {
      expect(toOpenAIToolChoice(named)).toEqual({
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
      })
      expect(toOpenAIToolChoice(undefined)).toEqual({})
    })
  })

  describe('responses shape', () => {
    for (const parallelToolCalls of parallelKnob) {
      it(`maps auto, required and none to the same strings (parallel ${parallelToolCalls})`, () => {
        for (const choice of ['auto', 'required', 'none'] as const) {
          expect(toOpenAIToolChoice(choice, { parallelToolCalls, api: 'responses' })).toEqual({
            tool_choice: choice,
            ...parallelField(parallelToolCalls),
          })
        }
      })

      it(`flattens a named function to { type, name } (parallel ${parallelToolCalls})`, () => {
        expect(toOpenAIToolChoice(named, { parallelToolCalls, api: 'responses' })).toEqual({
          tool_choice: { type: 'function', name: 'get_weather' },
          ...parallelField(parallelToolCalls),
        })
      })

      it(`leaves tool_choice out when no choice is given (parallel ${parallelToolCalls})`, () => {
        expect(toOpenAIToolChoice(undefined, { parallelToolCalls, api: 'responses' })).toEqual(
          parallelField(parallelToolCalls),
        )
      })
    }
  })
})
