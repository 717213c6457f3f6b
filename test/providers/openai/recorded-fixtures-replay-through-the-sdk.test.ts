// Replays the recorded OpenAI wire fixtures (outside the repo, read in place) through the
// real SDK and our adapter, and compares with what the SDK itself assembled (index.json's
// verified_sdk_result) and with the recorded request bodies.
import type { AssistantMessage, Message, ToolCall } from '@nestor/core'
import type { ToolSpec } from '@nestor/core/integration-kit'
import { openai } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { hasSharedWire, readShared, readSharedJson } from '../../support/fixtures.js'
import { body, collect, request, useWire } from '../../support/openai-wire.js'

type Fixture = {
  file: string
  status: number
  content_type: string
  request?: string | null
  verified_sdk_result?: Record<string, unknown> | null
}
type ChatVerified = {
  finish_reason: string
  content: string | null
  tool_calls: { id: string; name: string; arguments: string }[]
  usage: {
    prompt_tokens: number
    completion_tokens: number
    total_tokens: number
    prompt_tokens_details?: { cached_tokens: number }
  }
}
type ResponsesVerified = {
  output: { type: string; id: string; call_id?: string; name?: string; arguments?: string }[]
  usage: {
    input_tokens: number
    output_tokens: number
    total_tokens: number
    input_tokens_details: { cached_tokens: number }
  }
}

const fixtures: Fixture[] = hasSharedWire ? readSharedJson<{ fixtures: Fixture[] }>('index.json').fixtures : []
const streams = (dir: string) => fixtures.filter((f) => f.file.startsWith(`${dir}/`) && f.status === 200)
const calls = (message: AssistantMessage) => message.content.filter((c): c is ToolCall => c.type === 'toolCall')
const text = (message: AssistantMessage) => message.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('')
const stopFor: Record<string, string> = { tool_calls: 'toolUse', stop: 'stop', length: 'length' }

/** The ToolSpec a recorded request's tool came from (the recorded tools are strict). */
const specFromChatTool = (tool: {
  function: { name: string; description: string; parameters: Record<string, unknown> }
}): ToolSpec => ({
  name: tool.function.name,
  description: tool.function.description,
  parameters: tool.function.parameters,
})

describe.skipIf(!hasSharedWire)(
  'openai: recorded wire fixtures replay through the SDK (skipped: the recorded wire fixtures are not found)',
  () => {
    const wire = useWire()

    describe('chat completions streams match what the SDK assembled', () => {
      for (const fixture of streams('openai-chat')) {
        it(fixture.file, async () => {
          const verified = fixture.verified_sdk_result as ChatVerified
          wire.server.enqueue({ body: readShared(fixture.file), headers: { 'content-type': fixture.content_type } })
          const { final, last } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
          expect(last.type).toBe('done')
          expect(calls(final).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments }))).toEqual(
            verified.tool_calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.arguments) as unknown })),
          )
          expect(text(final)).toBe(verified.content ?? '')
          expect(final.stopReason).toBe(stopFor[verified.finish_reason])
          const cached = verified.usage.prompt_tokens_details?.cached_tokens ?? 0
          expect(final.usage).toMatchObject({
            input: verified.usage.prompt_tokens - cached,
            cacheRead: cached,
            output: verified.usage.completion_tokens,
            total: verified.usage.total_tokens,
          })
        })
      }
    })

    describe('responses streams match what the SDK assembled', () => {
      for (const fixture of streams('openai-responses')) {
        it(fixture.file, async () => {
          wire.server.enqueue({ body: readShared(fixture.file), headers: { 'content-type': fixture.content_type } })
          const { final, last } = await collect(
            openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses' }).stream(request()),
          )
          const verified = fixture.verified_sdk_result as Record<string, unknown>
          if ('throws' in verified) {
            expect(last).toMatchObject({ type: 'error', error: { code: 'provider_error', retryable: false } })
            expect(last.type === 'error' && last.error.message).toContain(verified.message as string)
            return
          }
          const { output, usage } = verified as unknown as ResponsesVerified
          expect(last.type).toBe('done')
          const expectedCalls = output.filter((o) => o.type === 'function_call')
          expect(calls(final)).toEqual(
            expectedCalls.map((o) => ({
              type: 'toolCall',
              id: o.call_id,
              name: o.name,
              arguments: JSON.parse(o.arguments ?? '{}') as unknown,
              providerData: { itemId: o.id },
            })),
          )
          const reasoning =
            (final.providerData?.openaiResponses as { reasoning: { item: { id: string } }[] } | undefined)?.reasoning ??
            []
          expect(reasoning.map((r) => r.item.id)).toEqual(output.filter((o) => o.type === 'reasoning').map((o) => o.id))
          expect(final.stopReason).toBe(expectedCalls.length > 0 ? 'toolUse' : 'stop')
          if (output.some((o) => o.type === 'message')) expect(text(final).length).toBeGreaterThan(0)
          const cached = usage.input_tokens_details.cached_tokens
          expect(final.usage).toMatchObject({
            input: usage.input_tokens - cached,
            cacheRead: cached,
            output: usage.output_tokens,
            total: usage.total_tokens,
          })
        })
      }
    })

    describe('recorded HTTP errors', () => {
      it('retries the recorded 429 rate_limit_exceeded with its headers, then succeeds', async () => {
        const headers = readSharedJson<{ headers: Record<string, string> }>(
          'openai-chat/error.429.rate-limit-exceeded.headers.json',
        ).headers
        wire.server.enqueue(
          { status: 429, headers, body: readShared('openai-chat/error.429.rate-limit-exceeded.json') },
          { body: readShared('openai-chat/text.plain.gpt-4o-2024-08-06.sse') },
        )
        const { events, last } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
        expect(events.filter((e) => e.type === 'retry')).toMatchObject([
          { delayMs: 10, error: { status: 429, retryable: true } },
        ])
        expect(last.type).toBe('done')
      })

      it('does not retry the recorded 429 insufficient_quota', async () => {
        wire.server.enqueue({
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after-ms': '1' },
          body: readShared('openai-chat/error.429.insufficient-quota.json'),
        })
        const { last } = await collect(openai({ baseURL: wire.baseURL, apiKey: 'sk-test' }).stream(request()))
        expect(last).toMatchObject({ type: 'error', error: { status: 429, retryable: false } })
        expect(wire.server.requests).toHaveLength(1)
      })
    })

    describe('our request bodies match the recorded ones on the key fields', () => {
      type ChatBody = {
        model: string
        messages: {
          role: string
          content: unknown
          tool_calls?: { id: string; function: { name: string; arguments: string } }[]
        }[]
        tools: Parameters<typeof specFromChatTool>[0][]
        tool_choice: unknown
        stream_options: unknown
      }

      it('chat: the first turn (strict tool, tool_choice auto, include_usage)', async () => {
        const recorded = readSharedJson<ChatBody>('openai-chat/tool-call.single.include-usage.gpt-4o-mini.request.json')
        wire.server.enqueue({ body: readShared('openai-chat/tool-call.single.include-usage.gpt-4o-mini.sse') })
        const tools = recorded.tools.map(specFromChatTool)
        await collect(
          openai({ baseURL: wire.baseURL, apiKey: 'sk-test', strict: true }).stream(
            request({
              model: recorded.model,
              tools,
              toolChoice: 'auto',
              messages: [{ role: 'user', content: recorded.messages[0]!.content as string }],
            }),
          ),
        )
        const sent = body(wire.server) as unknown as ChatBody
        expect(sent.tools).toEqual(recorded.tools)
        expect(sent.tool_choice).toEqual(recorded.tool_choice)
        expect(sent.stream_options).toEqual(recorded.stream_options)
        expect(sent.messages).toEqual(recorded.messages)
      })

      it('chat: the turn after the tool result replays tool_calls and the role tool message exactly', async () => {
        wire.server.enqueue(
          { body: readShared('openai-chat/tool-call.single.include-usage.gpt-4o-mini.sse') },
          { body: readShared('openai-chat/text.after-tool-result.include-usage.gpt-4o-mini.sse') },
        )
        const recorded = readSharedJson<ChatBody>(
          'openai-chat/text.after-tool-result.include-usage.gpt-4o-mini.request.json',
        )
        const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test', strict: true })
        const tools = recorded.tools.map(specFromChatTool)
        const user: Message = { role: 'user', content: recorded.messages[0]!.content as string }
        const first = await collect(
          provider.stream(request({ model: recorded.model, tools, toolChoice: 'auto', messages: [user] })),
        )
        const call = calls(first.final)[0]!
        const history: Message[] = [
          user,
          first.final,
          {
            role: 'toolResult',
            toolCallId: call.id,
            toolName: call.name,
            content: [{ type: 'text', text: 'London' }],
            isError: false,
          },
        ]
        const second = await collect(
          provider.stream(request({ model: recorded.model, tools, toolChoice: 'auto', messages: history })),
        )
        expect(text(second.final)).toBe('The capital of the UK is London.')
        const sent = body(wire.server, 1) as unknown as ChatBody
        expect(sent.messages).toEqual(recorded.messages)
        expect(sent.tools).toEqual(recorded.tools)
      })

      type ResponsesBody = {
        model: string
        input: Record<string, unknown>[]
        tools: { name: string; description: string; parameters: Record<string, unknown> }[]
        tool_choice: unknown
        reasoning?: unknown
        include?: unknown
      }
      const specs = (recorded: ResponsesBody): ToolSpec[] =>
        recorded.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }))

      it('responses: flat strict tools, tool_choice and the user input', async () => {
        const recorded = readSharedJson<ResponsesBody>('openai-responses/function-call.gpt-4o.request.json')
        wire.server.enqueue({ body: readShared('openai-responses/function-call.gpt-4o.sse') })
        await collect(
          openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses', strict: true }).stream(
            request({
              model: recorded.model,
              tools: specs(recorded),
              toolChoice: 'auto',
              messages: [{ role: 'user', content: recorded.input[0]!.content as string }],
            }),
          ),
        )
        const sent = body(wire.server) as unknown as ResponsesBody
        expect(sent.tools).toEqual(recorded.tools)
        expect(sent.tool_choice).toEqual(recorded.tool_choice)
        expect(sent.input).toEqual(recorded.input)
      })

      it('responses: tool_choice required and reasoning effort as recorded for gpt-5', async () => {
        const recorded = readSharedJson<ResponsesBody>(
          'openai-responses/function-call.tool-choice-required.reasoning.gpt-5.request.json',
        )
        wire.server.enqueue({
          body: readShared('openai-responses/function-call.tool-choice-required.reasoning.gpt-5.sse'),
        })
        await collect(
          openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses', strict: true }).stream(
            request({
              model: recorded.model,
              tools: specs(recorded),
              toolChoice: 'required',
              options: { reasoningEffort: 'low' },
              messages: [{ role: 'user', content: recorded.input[0]!.content as string }],
            }),
          ),
        )
        const sent = body(wire.server) as unknown as ResponsesBody
        expect(sent.tools).toEqual(recorded.tools)
        expect(sent.tool_choice).toBe('required')
        expect(sent.include).toEqual(recorded.include)
        expect(sent.reasoning).toMatchObject({ effort: 'low' })
      })

      it('responses: the turn after the call replays function_call and function_call_output with the call_id', async () => {
        const recorded = readSharedJson<ResponsesBody>(
          'openai-responses/text.after-function-call-output.gpt-4o.request.json',
        )
        wire.server.enqueue(
          { body: readShared('openai-responses/function-call.gpt-4o.sse') },
          { body: readShared('openai-responses/text.after-function-call-output.gpt-4o.sse') },
        )
        const provider = openai({ baseURL: wire.baseURL, apiKey: 'sk-test', api: 'responses', strict: true })
        const user: Message = { role: 'user', content: recorded.input[0]!.content as string }
        const first = await collect(
          provider.stream(
            request({ model: recorded.model, tools: specs(recorded), toolChoice: 'auto', messages: [user] }),
          ),
        )
        const call = calls(first.final)[0]!
        await collect(
          provider.stream(
            request({
              model: recorded.model,
              tools: specs(recorded),
              toolChoice: 'auto',
              messages: [
                user,
                first.final,
                {
                  role: 'toolResult',
                  toolCallId: call.id,
                  toolName: call.name,
                  content: [{ type: 'text', text: 'Paris' }],
                  isError: false,
                },
              ],
            }),
          ),
        )
        const sent = body(wire.server, 1) as unknown as ResponsesBody
        const [recordedCall, recordedOutput] = [recorded.input[1]!, recorded.input[2]!]
        const [sentCall, sentOutput] = [sent.input[1]!, sent.input[2]!]
        expect(sentCall).toMatchObject({
          type: recordedCall.type,
          name: recordedCall.name,
          arguments: recordedCall.arguments,
        })
        expect(sentOutput).toMatchObject({ type: recordedOutput.type, output: recordedOutput.output })
        // The documented contract (not the recorded client's fc_ id): call_id is the model's call_….
        expect(sentCall.call_id).toMatch(/^call_/)
        expect(sentOutput.call_id).toBe(sentCall.call_id)
        expect(sent.tools).toEqual(recorded.tools)
      })
    })
  },
)
