import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantMessage, Message, ToolCall, ToolChoice } from '@nestor/core'
import type { ModelRequest, ToolSpec } from '@nestor/core/integration-kit'
import { gemini } from '@nestor/providers'
import { hasSharedWire, readShared, readSharedJson } from '../../support/fixtures.js'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, final, type Body } from '../../support/gemini-wire.js'

type Verified = {
  chunks?: number
  stream_function_calls?: { name: string; args: Record<string, unknown> }[]
  stream_thought_signature_lengths?: number[]
  aggregated_text?: string
  finish_reason?: string
  usage?: {
    promptTokenCount?: number
    candidatesTokenCount?: number
    thoughtsTokenCount?: number
    cachedContentTokenCount?: number
    totalTokenCount?: number
  }
}
type Entry = {
  file: string
  status: number
  content_type: string
  request: string | null
  verified_sdk_result?: Verified
}
type RecordedPart = {
  text?: string
  thought?: boolean
  thoughtSignature?: string
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string }
  functionResponse?: { name: string; id?: string; response: Record<string, unknown> }
}
type Recorded = {
  contents: { role: string; parts: RecordedPart[] }[]
  systemInstruction?: { parts: { text: string }[] }
  toolConfig?: { functionCallingConfig: { mode: string; allowedFunctionNames?: string[] } }
  generationConfig?: Record<string, unknown>
  tools?: {
    functionDeclarations: {
      name: string
      description?: string
      parameters?: Record<string, unknown>
      parameters_json_schema?: Record<string, unknown>
    }[]
  }[]
}

const entries = hasSharedWire
  ? readSharedJson<{ fixtures: Entry[] }>('index.json').fixtures.filter(
      (e) => e.file.startsWith('gemini/') && e.file.endsWith('.sse'),
    )
  : []

// The recorded fixtures live outside the repo (see test/support/fixtures.ts) and are read in place. Without them (a bare checkout)
// this suite is skipped; our own scenarios in test/providers/wire/gemini cover the same ground.
describe.skipIf(!hasSharedWire)('Gemini replays every recorded fixture through @google/generative-ai', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('finds the recorded Gemini streams', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10)
  })

  for (const entry of entries) {
    it(`assembles ${entry.file} as the verified SDK result says, with distinct calls`, async () => {
      const verified = entry.verified_sdk_result!
      server.enqueue({
        status: entry.status,
        headers: { 'content-type': entry.content_type },
        body: readShared(entry.file),
      })
      const events = await collect(gemini({ apiKey: 'test-key', baseURL: server.url }).stream(baseRequest()))
      const end = final(events)
      const message = end.message

      if (verified.aggregated_text?.startsWith('THROWS')) {
        // The SDK's text() throws on SAFETY; the adapter makes it an error result instead.
        expect(end.type).toBe('error')
        expect(message.errorMessage).toContain(verified.finish_reason!)
        return
      }
      expect(end.type).toBe('done')
      const calls = message.content.filter((c): c is ToolCall => c.type === 'toolCall')
      expect(calls.map((c) => ({ name: c.name, args: c.arguments }))).toEqual(verified.stream_function_calls ?? [])
      expect(new Set(calls.map((c) => c.id)).size).toBe(calls.length)
      expect(message.stopReason).toBe(calls.length > 0 ? 'toolUse' : 'stop')
      // The SDK's aggregated text mixes thought summaries in; ours keeps them apart, in order.
      const visible = message.content
        .map((c) => (c.type === 'text' ? c.text : c.type === 'thinking' ? c.thinking : ''))
        .join('')
      expect(visible).toBe(verified.aggregated_text ?? '')
      expect(signatureLengths(message).sort()).toEqual([...(verified.stream_thought_signature_lengths ?? [])].sort())
      if (verified.usage) {
        const u = verified.usage
        expect(message.usage.input + message.usage.cacheRead).toBe(u.promptTokenCount ?? 0)
        expect(message.usage.output).toBe((u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0))
        expect(message.usage.total).toBe(u.totalTokenCount)
      }
    })
  }

  for (const entry of entries.filter((e) => e.request)) {
    it(`sends the key fields of ${entry.request} for the same conversation`, async () => {
      const recorded = readSharedJson<Recorded>(entry.request!)
      server.enqueue({ body: readShared(entry.file) })
      await collect(gemini({ apiKey: 'test-key', baseURL: server.url }).stream(requestFrom(recorded)))
      const body = server.requests.at(-1)!.json as Body

      expect(body.contents.map((c) => c.role)).toEqual(recorded.contents.map((c) => c.role))
      body.contents.forEach((content, i) => {
        const want = recorded.contents[i]!.parts
        expect(content.parts.map(kind)).toEqual(want.map(kind))
        content.parts.forEach((part, j) => {
          const w = want[j]!
          if (w.text !== undefined) expect(part.text).toBe(w.text)
          if (w.functionCall)
            expect(part.functionCall).toEqual({
              name: w.functionCall.name,
              args: w.functionCall.args ?? {},
              id: w.functionCall.id,
            })
          // The exact signature string on the same part.
          expect(part.thoughtSignature).toBe(w.thoughtSignature)
          if (w.functionResponse) {
            const fr = part.functionResponse as { name: string; id: string; response: Record<string, unknown> }
            expect({ name: fr.name, id: fr.id }).toEqual({ name: w.functionResponse.name, id: w.functionResponse.id })
            // pydantic-ai wraps as return_value, Nestor as result: the value is the same.
            expect(Object.values(fr.response)).toEqual(Object.values(w.functionResponse.response))
          }
        })
      })
      expect(body.systemInstruction?.parts).toEqual(recorded.systemInstruction?.parts)
      expect(body.toolConfig?.functionCallingConfig.mode).toBe(recorded.toolConfig?.functionCallingConfig.mode)
      const declared = (body.tools ?? []).flatMap((t) => t.functionDeclarations)
      const want = (recorded.tools ?? []).flatMap((t) => t.functionDeclarations)
      expect(declared.map((d) => d.name)).toEqual(want.map((d) => d.name))
      declared.forEach((d, i) => {
        const schema = want[i]!.parameters ?? want[i]!.parameters_json_schema ?? {}
        const props = (schema.properties ?? {}) as Record<string, { type?: string }>
        const sent = (d.parameters?.properties ?? {}) as Record<string, { type?: string }>
        expect(Object.keys(sent)).toEqual(Object.keys(props))
        for (const [name, p] of Object.entries(props)) expect(sent[name]?.type).toBe(p.type?.toLowerCase())
        expect(d.parameters?.required).toEqual(schema.required)
        // Never a keyword the `parameters` field rejects.
        expect(JSON.stringify(d)).not.toContain('additionalProperties')
      })
      if (recorded.generationConfig?.thinkingConfig)
        expect(body.generationConfig?.thinkingConfig).toEqual(recorded.generationConfig.thinkingConfig)
      if (recorded.generationConfig?.temperature !== undefined)
        expect(body.generationConfig?.temperature).toBe(recorded.generationConfig.temperature)
    })
  }
})

const baseRequest = (): ModelRequest => ({
  model: 'gemini-2.0-flash',
  messages: [{ role: 'user', content: 'Hi' }],
  tools: [],
  maxRetries: 0,
})

function signatureLengths(message: AssistantMessage): number[] {
  const out: number[] = []
  for (const c of message.content) {
    if (c.type === 'toolCall' && typeof c.providerData?.thoughtSignature === 'string')
      out.push(c.providerData.thoughtSignature.length)
    if (c.type === 'thinking' && c.signature) out.push(c.signature.length)
  }
  const text = message.providerData?.geminiTextSignatures as Record<string, string> | undefined
  for (const s of Object.values(text ?? {})) out.push(s.length)
  return out
}

const kind = (p: Record<string, unknown>) =>
  p.functionCall ? 'functionCall' : p.functionResponse ? 'functionResponse' : p.inlineData ? 'inlineData' : 'text'

/** The conversation a recorded request holds, as Nestor messages and options. */
function requestFrom(recorded: Recorded): ModelRequest {
  const messages: Message[] = []
  for (const content of recorded.contents) {
    if (content.role === 'model') {
      const message: AssistantMessage = {
        role: 'assistant',
        content: [],
        stopReason: 'toolUse',
        provider: 'gemini',
        model: 'recorded',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      }
      for (const part of content.parts) {
        if (part.functionCall) {
          const call: ToolCall = {
            type: 'toolCall',
            id: part.functionCall.id ?? 'x',
            name: part.functionCall.name,
            arguments: part.functionCall.args ?? {},
          }
          if (part.thoughtSignature) call.providerData = { thoughtSignature: part.thoughtSignature }
          message.content.push(call)
        } else if (part.text !== undefined) message.content.push({ type: 'text', text: part.text })
      }
      messages.push(message)
    } else if (content.parts.some((p) => p.functionResponse)) {
      for (const part of content.parts) {
        const fr = part.functionResponse!
        messages.push({
          role: 'toolResult',
          toolCallId: fr.id ?? 'x',
          toolName: fr.name,
          isError: false,
          content: [{ type: 'text', text: String(Object.values(fr.response)[0]) }],
        })
      }
    } else {
      messages.push({
        role: 'user',
        content: content.parts.map((p) => ({ type: 'text' as const, text: p.text ?? '' })),
      })
    }
  }
  const tools: ToolSpec[] = (recorded.tools ?? []).flatMap((t) =>
    t.functionDeclarations.map((d) => ({
      name: d.name,
      description: d.description ?? '',
      parameters: d.parameters ?? d.parameters_json_schema ?? { type: 'object' },
    })),
  )
  const config = recorded.toolConfig?.functionCallingConfig
  // Nestor's choice names at most one function; several allowed names map to plain "required".
  const toolChoice: ToolChoice | undefined = config
    ? config.mode === 'ANY'
      ? config.allowedFunctionNames?.length === 1
        ? { type: 'function', name: config.allowedFunctionNames[0]! }
        : 'required'
      : config.mode === 'NONE'
        ? 'none'
        : 'auto'
    : undefined
  const options: Record<string, unknown> = {}
  const thinking = recorded.generationConfig?.thinkingConfig as { includeThoughts?: boolean } | undefined
  if (thinking?.includeThoughts !== undefined) options.includeThoughts = thinking.includeThoughts
  if (recorded.generationConfig?.temperature !== undefined) options.temperature = recorded.generationConfig.temperature
  const request: ModelRequest = { model: 'gemini-2.0-flash', messages, tools, maxRetries: 0, options }
  if (recorded.systemInstruction) request.system = recorded.systemInstruction.parts.map((p) => p.text).join('')
  if (toolChoice) request.toolChoice = toolChoice
  return request
}
