import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModelEvent } from '@nestor/core/integration-kit'
import { anthropic } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request, scenario, weatherTool } from '../../support/anthropic-wire.js'

const ofType = <T extends ModelEvent['type']>(events: ModelEvent[], type: T) =>
  events.filter((e): e is Extract<ModelEvent, { type: T }> => e.type === type)

describe('anthropic provider streaming tool calls', () => {
  let server: WireServer
  const provider = () => anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' })
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('assembles fragmented input_json_delta into parsed arguments after the text', async () => {
    server.enqueue({ body: scenario('text-then-tool.sse') })
    const { events, final } = await collect(provider().stream(request({ tools: [weatherTool] })))
    expect(ofType(events, 'toolcall_start')).toEqual([
      { type: 'toolcall_start', id: 'toolu_nestor_weather_01', name: 'get_weather' },
    ])
    expect(
      ofType(events, 'toolcall_delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe('{"location": "Zürich, CH", "days": 3, "units": ["c"]}')
    expect(ofType(events, 'toolcall_end')).toHaveLength(1)
    expect(final.type).toBe('done')
    expect(final.message.stopReason).toBe('toolUse')
    expect(final.message.content).toEqual([
      { type: 'text', text: 'Let me look up the forecast.' },
      {
        type: 'toolCall',
        id: 'toolu_nestor_weather_01',
        name: 'get_weather',
        arguments: { location: 'Zürich, CH', days: 3, units: ['c'] },
      },
    ])
    expect(final.message.usage).toMatchObject({ input: 310, output: 58, cacheRead: 0, cacheWrite: 0, total: 368 })
  })

  it('keeps two parallel calls apart by block index and gives a no-argument call {}', async () => {
    server.enqueue({ body: scenario('parallel-tools.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(ofType(events, 'toolcall_end').map((e) => e.toolCall)).toEqual([
      { type: 'toolCall', id: 'toolu_nestor_add_01', name: 'add', arguments: { a: 2, b: 40 } },
      { type: 'toolCall', id: 'toolu_nestor_clock_02', name: 'now', arguments: {} },
    ])
    expect(final.message.stopReason).toBe('toolUse')
    expect(final.message.content.map((c) => (c.type === 'toolCall' ? c.id : c.type))).toEqual([
      'toolu_nestor_add_01',
      'toolu_nestor_clock_02',
    ])
    expect(final.message.usage).toMatchObject({ input: 500, output: 71 })
  })

  it('keeps the thinking text and its full signature before the tool call', async () => {
    server.enqueue({ body: scenario('thinking-tool.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(ofType(events, 'thinking_delta').map((e) => e.delta)).toEqual([
      'The user wants the version. ',
      'I should call the tool first.',
    ])
    expect(final.message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants the version. I should call the tool first.',
        signature: 'RXN0ZXN0U2lnbmF0dXJlRm9yTmVzdG9yV2lyZVRlc3RzX3RoaW5raW5nX2Jsb2NrXzAx+/==',
      },
      { type: 'toolCall', id: 'toolu_nestor_version_01', name: 'version', arguments: { package: 'nestor' } },
    ])
    expect(final.message.stopReason).toBe('toolUse')
    expect(final.message.usage).toMatchObject({ input: 620, output: 95 })
  })

  it('keeps redacted thinking as an opaque block whose signature is the data', async () => {
    server.enqueue({ body: scenario('redacted-thinking-text.sse') })
    const { final } = await collect(provider().stream(request()))
    expect(final.message.content).toEqual([
      {
        type: 'thinking',
        thinking: '',
        signature: 'RW5jcnlwdGVkT3BhcXVlUmVhc29uaW5nRm9yTmVzdG9yVGVzdHM=',
        redacted: true,
      },
      { type: 'thinking', thinking: 'Short answer is fine.', signature: 'U2Vjb25kQmxvY2tTaWduYXR1cmU=' },
      { type: 'text', text: 'Done.' },
    ])
    expect(final.message.stopReason).toBe('stop')
  })

  it('never yields a runnable call for tool input cut off by max_tokens', async () => {
    server.enqueue({ body: scenario('truncated-tool-input.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(ofType(events, 'toolcall_start')).toHaveLength(1)
    expect(ofType(events, 'toolcall_end')).toHaveLength(0)
    expect(final.type).toBe('done')
    expect(final.message.stopReason).toBe('length')
    const call = final.message.content[1]
    expect(call).toMatchObject({ type: 'toolCall', id: 'toolu_nestor_write_01', name: 'write_file', arguments: {} })
    expect(call?.type === 'toolCall' && call.invalidArguments).toBe('{"path": "notes.txt", "lines": ["first", "sec')
    expect(final.message.content[0]).toEqual({ type: 'text', text: 'Writing the file now.' })
  })

  it('keeps a truncated call unrunnable even when its fragment parses as JSON', async () => {
    server.enqueue({ body: scenario('truncated-tool-input-parseable.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(ofType(events, 'toolcall_end')).toHaveLength(0)
    expect(final.message.stopReason).toBe('length')
    expect(final.message.content).toEqual([
      {
        type: 'toolCall',
        id: 'toolu_nestor_delete_01',
        name: 'delete_files',
        arguments: {},
        invalidArguments: '{"glob": "*"}',
      },
    ])
  })

  it('ignores pings before, between and inside blocks', async () => {
    server.enqueue({ body: scenario('tool-no-args-pings.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'toolcall_start', 'toolcall_end', 'done'])
    expect(final.message.content).toEqual([
      { type: 'text', text: 'Refreshing the list.' },
      { type: 'toolCall', id: 'toolu_nestor_refresh_01', name: 'refresh', arguments: {} },
    ])
  })

  it('reports a refusal as a non-retryable refusal error and keeps the text as the refusal', async () => {
    server.enqueue({ body: scenario('refusal.sse') })
    const { final } = await collect(provider().stream(request()))
    expect(final.type).toBe('error')
    expect(final.message.stopReason).toBe('error')
    expect(final.message.content).toEqual([{ type: 'text', text: "I can't help with that." }])
    expect(final.type === 'error' && final.error).toMatchObject({
      code: 'refusal',
      retryable: false,
      provider: 'anthropic',
    })
    expect(final.message.refusal).toBe("I can't help with that.")
  })

  it('fails an in-stream overloaded error after content without retrying, keeping the partial text', async () => {
    server.requests.length = 0
    server.enqueue({ body: scenario('overloaded-after-text.sse') })
    const { events, final } = await collect(provider().stream(request()))
    expect(ofType(events, 'retry')).toHaveLength(0)
    expect(server.requests).toHaveLength(1)
    expect(final.type).toBe('error')
    expect(final.message.stopReason).toBe('error')
    expect(final.message.content).toEqual([{ type: 'text', text: 'Partial answer' }])
    expect(final.type === 'error' && final.error).toMatchObject({ code: 'provider_error', retryable: false })
    expect(final.message.errorMessage).toContain('overloaded_error')
  })

  it('retries an in-stream overloaded error that came before any content', async () => {
    server.requests.length = 0
    server.enqueue({ body: scenario('overloaded-before-content.sse') }, { body: scenario('text.sse') })
    const { events, final } = await collect(provider().stream(request({ maxRetries: 1 })))
    expect(ofType(events, 'retry')).toHaveLength(1)
    expect(ofType(events, 'start')).toHaveLength(1)
    expect(server.requests).toHaveLength(2)
    expect(final.type).toBe('done')
    expect(final.message.content).toEqual([{ type: 'text', text: 'Bonjour, le monde — ça va ? 🦜' }])
  })
})
