import { describe, expect, it } from 'vitest'
import { Runtime } from '@nestor/core'
import { anthropic, gemini, openai, openaiCompatible, replay, scripted } from '@nestor/providers'
import { thrown } from '../support/thrown.js'

// Misspelt keys as users write them: each must fail where it is given, naming the key and the fix.
const provider = scripted(['x'])
const cases: [string, () => unknown, string, string][] = [
  [
    'new Runtime',
    () => new Runtime({ provider, model: 'm', maxIteration: 3 } as never),
    'maxIteration',
    'maxIterations',
  ],
  [
    'new Runtime hooks',
    () => new Runtime({ provider, model: 'm', hooks: { beforeToolcall: () => undefined } } as never),
    'hooks.beforeToolcall',
    'hooks.beforeToolCall',
  ],
  ['exec', () => new Runtime({ provider, model: 'm' }).exec('go', { tols: [] } as never), 'tols', 'tools'],
  ['openai', () => openai({ apikey: 'sk-test' } as never), 'apikey', 'apiKey'],
  ['anthropic', () => anthropic({ apiKey: 'k', max_tokens: 10 } as never), 'max_tokens', 'maxTokens'],
  ['gemini', () => gemini({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' } as never), 'baseUrl', 'baseURL'],
  [
    'openaiCompatible',
    () => openaiCompatible({ baseURL: 'http://127.0.0.1:1/v1', toolProtocl: 'text' } as never),
    'toolProtocl',
    'toolProtocol',
  ],
  ['scripted', () => scripted(['x'], { chunksize: 4 } as never), 'chunksize', 'chunkSize'],
  ['replay', () => replay({ dir: '/tmp/none', mode: 'strict', pace: 5 } as never), 'pace', 'paceMs'],
]

describe('an unknown option key', () => {
  it.each(cases)(
    '%s fails invalid_options synchronously, naming the key and the nearest valid one',
    (_where, fn, key, nearest) => {
      const error = thrown(fn)
      expect(error.code).toBe('invalid_options')
      expect(error.message).toContain(`unknown option ${key}`)
      expect(error.message).toContain(`did you mean ${nearest}?`)
    },
  )

  it('a misspelt exec option fails before any request', () => {
    const p = scripted(['x'])
    expect(thrown(() => new Runtime({ provider: p, model: 'm' }).exec('go', { maxIteration: 2 } as never)).code).toBe(
      'invalid_options',
    )
    expect(p.requests).toHaveLength(0)
  })
})
