import { openai, replay } from '@nestor/providers'
import type { AssistantMessage, ToolCall } from '@nestor/core'
import { afterEach, describe, expect, it } from 'vitest'
import { startWireServer, type WireServer } from '../support/wire-server.js'
import { nativeToolCall, textAnswer } from './chat-sse.js'
import { drain, filesIn, tempDir, weatherRequest } from '../support/cassette-files.js'

const SECRET = 'db-pass-31c9-zebra'

type Json = { type: string; delta?: string; id?: string; message?: AssistantMessage; toolCall?: ToolCall }

/** What someone holding only the file could rebuild: every delta stream joined. */
function joinedStreams(events: Json[]): string[] {
  const text = events
    .filter((e) => e.type === 'text_delta')
    .map((e) => e.delta)
    .join('')
  const args = new Map<string, string>()
  for (const e of events) if (e.type === 'toolcall_delta') args.set(e.id!, (args.get(e.id!) ?? '') + e.delta)
  return [text, ...args.values()]
}

async function recordThenReplay(wire: WireServer, body: string): Promise<{ file: string; replayed: Json[] }> {
  wire.enqueue({ body })
  const dir = await tempDir()
  const inner = openai({ baseURL: `${wire.url}/v1`, apiKey: 'sk-test-unused-key', maxRetries: 0 })
  await drain(replay({ provider: inner, dir, mode: 'record', secrets: [SECRET] }), weatherRequest())
  const [file] = await filesIn(dir)
  const replayed = (await drain(replay({ dir, mode: 'strict' }), weatherRequest())) as Json[]
  return { file: file!.text, replayed }
}

describe('recording with secrets', () => {
  let wire: WireServer | undefined
  afterEach(async () => {
    await wire?.close()
    wire = undefined
  })

  it('a secret streamed as text split over three deltas is not in the cassette, joined or apart, and replayed deltas join to the replayed message text', async () => {
    wire = await startWireServer()
    const { file, replayed } = await recordThenReplay(
      wire,
      textAnswer(['The password is ', SECRET.slice(0, 5), SECRET.slice(5, 11), `${SECRET.slice(11)} ok.`]),
    )
    const recorded = (JSON.parse(file) as { events: Json[] }).events
    for (const joined of joinedStreams(recorded)) expect(joined).not.toContain(SECRET)
    expect(file).not.toContain(SECRET)
    const done = replayed.at(-1)!
    expect(done.type).toBe('done')
    const finalText = done.message!.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
    expect(finalText).toBe('The password is [REDACTED] ok.')
    expect(joinedStreams(replayed)[0]).toBe(finalText)
  })

  it('a secret split across tool call argument deltas cannot be rebuilt, and the replayed argument deltas parse to the replayed arguments', async () => {
    wire = await startWireServer()
    const { file, replayed } = await recordThenReplay(
      wire,
      nativeToolCall('call_1', 'get_weather', ['{"city":"', SECRET.slice(0, 8), SECRET.slice(8), '"}']),
    )
    const recorded = (JSON.parse(file) as { events: Json[] }).events
    for (const joined of joinedStreams(recorded)) expect(joined).not.toContain(SECRET)
    const call = replayed.find((e) => e.type === 'toolcall_end')!.toolCall!
    expect(call.arguments).toEqual({ city: '[REDACTED]' })
    expect(JSON.parse(joinedStreams(replayed)[1]!)).toEqual(call.arguments)
  })

  it('a stream without a secret keeps its recorded chunking exactly', async () => {
    wire = await startWireServer()
    const { replayed } = await recordThenReplay(wire, textAnswer(['db', '-pa', 'ss is not here']))
    expect(replayed.filter((e) => e.type === 'text_delta').map((e) => e.delta)).toEqual(['db', '-pa', 'ss is not here'])
  })
})
