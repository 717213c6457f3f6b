import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantMessage, Message } from '@nestor/core'
import type { ModelEvent, ToolSpec } from '@nestor/core/integration-kit'
import { anthropic } from '@nestor/providers'
import { hasSharedWire, readShared, readSharedJson } from '../../support/fixtures.js'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, type Body } from '../../support/anthropic-wire.js'

// Reads the recorded wire fixtures (outside the repo, see test/support/fixtures.ts) in place, never copied. Skipped when that directory is absent:
// the committed scenarios under test/providers/wire/anthropic cover the same ground.

type SdkBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'thinking'; thinking_chars: number; signature_chars: number }
type Entry = {
  file: string
  request: string | null
  verified_sdk_result: {
    stop_reason?: string
    content?: SdkBlock[]
    usage?: { input_tokens: number; output_tokens: number }
    throws?: string
  }
}

const entries = hasSharedWire
  ? readSharedJson<{ fixtures: Entry[] }>('index.json').fixtures.filter(
      (e) => e.file.startsWith('anthropic/') && e.file.endsWith('.sse'),
    )
  : []
const stopReasons: Record<string, string> = {
  end_turn: 'stop',
  tool_use: 'toolUse',
  max_tokens: 'length',
  stop_sequence: 'stop',
}

describe.skipIf(!hasSharedWire)('anthropic provider on the recorded wire fixtures', () => {
  let server: WireServer
  const provider = () => anthropic({ baseURL: server.url, apiKey: 'sk-ant-test', maxRetries: 0 })
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  async function replay(
    file: string,
    model = 'claude-haiku-4-5',
    messages: Message[] = [{ role: 'user', content: 'hi' }],
    tools: ToolSpec[] = [],
  ) {
    server.requests.length = 0
    server.enqueue({ body: readShared(file) })
    return collect(provider().stream({ model, messages, tools }))
  }

  it('finds the anthropic fixtures', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10)
  })

  for (const entry of entries) {
    it(`${entry.file} gives what the SDK verified`, async () => {
      const { events, final } = await replay(entry.file)
      const sdk = entry.verified_sdk_result
      if (sdk.throws) {
        expect(final.type).toBe('error')
        expect(final.type === 'error' && final.error).toMatchObject({ code: 'provider_error', retryable: true })
        expect(final.message.errorMessage).toContain('overloaded_error')
        return
      }
      const message = final.message
      expect(final.type).toBe('done')
      expect(message.stopReason).toBe(stopReasons[sdk.stop_reason ?? ''])
      expect(message.usage.input).toBe(sdk.usage?.input_tokens)
      expect(message.usage.output).toBe(sdk.usage?.output_tokens)
      const content = sdk.content ?? []
      expect(message.content).toHaveLength(content.length)
      content.forEach((block, i) => {
        const ours = message.content[i]
        if (block.type === 'text') expect(ours).toEqual({ type: 'text', text: block.text })
        else if (block.type === 'thinking') {
          expect(ours?.type).toBe('thinking')
          if (ours?.type !== 'thinking') return
          expect(ours.thinking.length).toBe(block.thinking_chars)
          expect(ours.signature?.length).toBe(block.signature_chars)
        } else if (sdk.stop_reason === 'max_tokens') {
          // The SDK returns a partially parsed input here; Nestor keeps the call unrunnable instead.
          expect(ours).toMatchObject({ type: 'toolCall', id: block.id, name: block.name, arguments: {} })
          expect(ours?.type === 'toolCall' && typeof ours.invalidArguments).toBe('string')
          expect(events.some((e: ModelEvent) => e.type === 'toolcall_end')).toBe(false)
        } else {
          expect(ours).toEqual({ type: 'toolCall', id: block.id, name: block.name, arguments: block.input })
        }
      })
    })
  }

  const recordedBody = (file: string) => readSharedJson<Body>(file)
  const result = (id: string, text: string): Message => ({
    role: 'toolResult',
    toolCallId: id,
    toolName: 'x',
    content: [{ type: 'text', text }],
    isError: false,
  })

  it('replays a streamed thinking + tool_use turn exactly as the recorded client did', async () => {
    const prompt =
      'Use the fixed_version tool. Then tell me the version and make one short joke about it. Think about it first.'
    const user: Message = { role: 'user', content: prompt }
    const first = await replay('anthropic/thinking.tool-use.claude-haiku-4-5.sse', 'claude-haiku-4-5', [user])
    const assistant: AssistantMessage = first.final.message
    const toolCall = assistant.content.find((c) => c.type === 'toolCall')
    expect(toolCall?.type).toBe('toolCall')
    if (toolCall?.type !== 'toolCall') return
    await replay('anthropic/text.after-thinking-tool-result.claude-haiku-4-5.sse', 'claude-haiku-4-5', [
      user,
      assistant,
      result(toolCall.id, '0.32a0'),
    ])
    const ours = server.requests[0]!.json as Body
    const recorded = recordedBody('anthropic/text.after-thinking-tool-result.claude-haiku-4-5.request.json')
    expect(ours.messages).toEqual(recorded.messages)
  })

  it('groups both parallel tool results into one user message as the recorded client did', async () => {
    const user: Message = { role: 'user', content: 'Two names for a pet pelican' }
    const first = await replay('anthropic/tool-use.parallel.no-args.claude-haiku-4-5.sse', 'claude-haiku-4-5', [user])
    const calls = first.final.message.content.filter((c) => c.type === 'toolCall')
    expect(calls).toHaveLength(2)
    const history: Message[] = [
      user,
      first.final.message,
      result(calls[0]!.id, 'Charles'),
      result(calls[1]!.id, 'Sammy'),
    ]
    await replay('anthropic/text.after-parallel-tool-results.claude-haiku-4-5.sse', 'claude-haiku-4-5', history)
    const ours = server.requests[0]!.json as Body
    const recorded = recordedBody('anthropic/text.after-parallel-tool-results.claude-haiku-4-5.request.json')
    expect(ours.messages[2]).toEqual(recorded.messages[2])
    // The recorded client also sent a " " text block before the tool_use blocks; the API does not need it.
    const toolUses = (m: Body['messages'][number]) => m.content.filter((b) => b.type === 'tool_use')
    expect(toolUses(ours.messages[1]!)).toEqual(toolUses(recorded.messages[1]!))
  })

  it('sends tool_choice any and the tool definition as the documented request', async () => {
    const recorded = recordedBody('anthropic/docs.tool-use.tool-choice-any.claude-opus-4-1.request.json')
    const tool = recorded.tools![0]!
    server.requests.length = 0
    server.enqueue({ body: readShared('anthropic/docs.tool-use.tool-choice-any.claude-opus-4-1.sse') })
    const { final } = await collect(
      provider().stream({
        model: 'claude-opus-4-1-20250805',
        messages: [{ role: 'user', content: 'What is the weather like in San Francisco?' }],
        tools: [{ name: tool.name, description: tool.description, parameters: tool.input_schema }],
        toolChoice: 'required',
        options: { maxTokens: 1024 },
      }),
    )
    expect(final.message.stopReason).toBe('toolUse')
    const ours = server.requests[0]!.json as Body
    expect(ours.tool_choice).toEqual(recorded.tool_choice)
    expect(ours.tools).toEqual(recorded.tools)
    expect(ours.max_tokens).toBe(recorded.max_tokens)
  })
})
