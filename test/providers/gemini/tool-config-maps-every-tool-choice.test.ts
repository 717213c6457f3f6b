import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gemini } from '@nestor/providers'
import { toGeminiToolConfig } from '@nestor/providers/gemini'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, geminiSse, request, weatherTool, timeTool, type Body } from '../../support/gemini-wire.js'

describe('toGeminiToolConfig', () => {
  it('maps auto to mode AUTO', () => {
    expect(toGeminiToolConfig('auto')).toEqual({ functionCallingConfig: { mode: 'AUTO' } })
  })
  it('maps required to mode ANY without a name list', () => {
    expect(toGeminiToolConfig('required')).toEqual({ functionCallingConfig: { mode: 'ANY' } })
  })
  it('maps none to mode NONE', () => {
    expect(toGeminiToolConfig('none')).toEqual({ functionCallingConfig: { mode: 'NONE' } })
  })
  it('maps one named function to ANY restricted to that name', () => {
    expect(toGeminiToolConfig({ type: 'function', name: 'get_weather' })).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    })
  })
  it('sends nothing when no choice is made, leaving the API default', () => {
    expect(toGeminiToolConfig(undefined)).toBeUndefined()
  })
})

describe('the request body carries the tool config', () => {
  let server: WireServer
  const ok = geminiSse([
    { candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] },
  ])
  beforeAll(async () => {
    server = await startWireServer()
  })
  afterAll(() => server.close())

  it('sends toolConfig beside tools, and ignores parallelToolCalls (Gemini has no knob)', async () => {
    server.enqueue({ body: ok })
    const provider = gemini({ apiKey: 'test-key', baseURL: server.url })
    await collect(
      provider.stream(
        request({
          tools: [weatherTool, timeTool],
          toolChoice: { type: 'function', name: 'get_time' },
          parallelToolCalls: false,
        }),
      ),
    )
    const body = server.requests.at(-1)!.json as Body & Record<string, unknown>
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_time'] } })
    expect(body.tools?.[0]?.functionDeclarations.map((d) => d.name)).toEqual(['get_weather', 'get_time'])
    expect(JSON.stringify(body)).not.toContain('parallel')
  })

  it('omits toolConfig when there are no tools', async () => {
    server.enqueue({ body: ok })
    const provider = gemini({ apiKey: 'test-key', baseURL: server.url })
    await collect(provider.stream(request({ toolChoice: 'required' })))
    const body = server.requests.at(-1)!.json as Body
    expect(body.tools).toBeUndefined()
    expect(body.toolConfig).toBeUndefined()
  })
})
