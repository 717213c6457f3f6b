import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Runtime, defineTool } from '@nestor/core'
import { gemini } from '@nestor/providers'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { scenario, timeTool, weatherTool, type Body } from '../../support/gemini-wire.js'

const weather = defineTool({
  name: weatherTool.name,
  description: weatherTool.description,
  parameters: weatherTool.parameters,
  execute: async (args) => `18°C in ${String((args as { city: string }).city)}`,
})
const time = defineTool({
  name: timeTool.name,
  description: timeTool.description,
  parameters: timeTool.parameters,
  execute: async () => '14:00',
})

describe('Runtime over the gemini provider and the wire', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('runs three parallel calls of one chunk, replays the signature, and returns the answer', async () => {
    server.enqueue(
      { body: scenario('function-call.parallel-one-chunk.sse') },
      { body: scenario('text.after-function-response.sse') },
    )
    const runtime = new Runtime({
      provider: gemini({ baseURL: server.url, apiKey: 'test-key' }),
      model: 'gemini-3-flash-preview',
    })
    const run = runtime.exec('Weather in Paris and Tokyo, and the time in Tokyo?', { tools: [weather, time] })
    const types: string[] = []
    for await (const event of run) types.push(event.type)
    const result = await run

    expect(result.status).toBe('completed')
    expect(result.text).toBe('It is 18°C in Paris.')
    expect(result.iterationsUsed).toBe(2)
    expect(result.history.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'toolResult',
      'assistant',
    ])
    expect(types.filter((t) => t === 'tool_end')).toHaveLength(3)

    const second = server.requests.at(-1)!.json as Body
    expect(second.contents.map((c) => c.role)).toEqual(['user', 'model', 'user'])
    const [, model, responses] = second.contents
    expect(model!.parts.map((p) => p.thoughtSignature)).toEqual(['SIG-parallel-first-QUJD', undefined, undefined])
    expect(responses!.parts.map((p) => p.functionResponse)).toEqual([
      {
        name: 'get_weather',
        id: (model!.parts[0]!.functionCall as { id: string }).id,
        response: { result: '18°C in Paris' },
      },
      {
        name: 'get_weather',
        id: (model!.parts[1]!.functionCall as { id: string }).id,
        response: { result: '18°C in Tokyo' },
      },
      { name: 'get_time', id: (model!.parts[2]!.functionCall as { id: string }).id, response: { result: '14:00' } },
    ])
    expect(result.usage.input).toBeGreaterThan(0)
  })
})
