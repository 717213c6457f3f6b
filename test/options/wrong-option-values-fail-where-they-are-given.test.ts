import { describe, expect, it } from 'vitest'
import { Runtime, type ExecInput } from '@nestor/core'
import { anthropic, gemini, openai, openaiCompatible, replay, scripted } from '@nestor/providers'
import { thrown } from '../support/thrown.js'

const provider = scripted(['x'])
const runtime = (extra: Record<string, unknown>) => new Runtime({ provider, model: 'm', ...extra } as never)

// Each value is wrong in a way that used to be accepted, or to fail only later as something else.
const wrong: [string, () => unknown, string][] = [
  ["openai api: 'respones'", () => openai({ apiKey: 'k', api: 'respones' } as never), 'api'],
  ['openai maxRetries: -3', () => openai({ apiKey: 'k', maxRetries: -3 }), 'maxRetries'],
  ['anthropic maxRetries: 1.5', () => anthropic({ apiKey: 'k', maxRetries: 1.5 }), 'maxRetries'],
  [
    "gemini streamIdleTimeoutMs: '5s'",
    () => gemini({ apiKey: 'k', streamIdleTimeoutMs: '5s' } as never),
    'streamIdleTimeoutMs',
  ],
  [
    "openaiCompatible toolProtocol: 'json'",
    () => openaiCompatible({ baseURL: 'http://127.0.0.1:1/v1', toolProtocol: 'json' } as never),
    'toolProtocol',
  ],
  ['scripted chunkSize: 0', () => scripted(['x'], { chunkSize: 0 }), 'chunkSize'],
  ["replay mode: 'replay'", () => replay({ dir: '/tmp/x', mode: 'replay' } as never), 'mode'],
  ["hooks.beforeToolCall: 'str'", () => runtime({ hooks: { beforeToolCall: 'str' } }), 'hooks.beforeToolCall'],
  ["approve: 'yes'", () => runtime({ approve: 'yes' }), 'approve'],
  ["stateSecret: ''", () => runtime({ stateSecret: '' }), 'stateSecret'],
  ['stateSecret: 123', () => runtime({ stateSecret: 123 }), 'stateSecret'],
  ["claimState: 'memory'", () => runtime({ claimState: 'memory' }), 'claimState'],
  ['maxRetries: 2.5', () => runtime({ maxRetries: 2.5 }), 'maxRetries'],
  ['secrets: [1]', () => runtime({ secrets: [1] }), 'secrets'],
  [
    "exec({ role: 'bogus' })",
    () => runtime({}).exec({ role: 'bogus', content: 'hi' } as unknown as ExecInput),
    'input',
  ],
  [
    'exec([{ role: user, content: 5 }])',
    () => runtime({}).exec([{ role: 'user', content: 5 }] as unknown as ExecInput),
    'input.0.content',
  ],
  [
    "exec history with { role: 'assistant', content: null }",
    () => runtime({}).exec('go', { history: [{ role: 'assistant', content: null }] } as never),
    'history.0',
  ],
  ["exec signal: 'stop'", () => runtime({}).exec('go', { signal: 'stop' } as never), 'signal'],
]

describe('a wrong option value', () => {
  it.each(wrong)('%s fails invalid_options synchronously, naming the option', (_what, fn, option) => {
    const error = thrown(fn)
    expect(error.code).toBe('invalid_options')
    expect(error.message).toContain(`invalid option ${option}`)
  })

  it('maxToolConcurrency: Infinity, the default, is accepted when given', () => {
    expect(() => runtime({ maxToolConcurrency: Infinity, toolExecution: 'parallel' })).not.toThrow()
    expect(thrown(() => runtime({ maxToolConcurrency: 0 })).code).toBe('invalid_options')
  })

  it("openai({ api: 'responses' }) is kept: the valid spelling selects the Responses API", () => {
    expect(openai({ apiKey: 'k', api: 'responses' }).api).toBe('responses')
  })

  it('a hook given as a string fails at the constructor, not at the first tool call', async () => {
    const p = scripted([{ content: [{ type: 'toolCall', name: 'x', arguments: {} }] }, 'done'])
    expect(thrown(() => new Runtime({ provider: p, model: 'm', hooks: { beforeToolCall: 'str' } } as never)).code).toBe(
      'invalid_options',
    )
    expect(p.requests).toHaveLength(0)
  })
})
