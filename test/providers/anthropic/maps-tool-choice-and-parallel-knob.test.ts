import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ToolChoice } from '@nestor/core'
import { anthropic } from '@nestor/providers'
import { toAnthropicToolChoice } from '@nestor/providers/anthropic'
import { startWireServer, type WireServer } from '../../support/wire-server.js'
import { collect, request, scenario, weatherTool, type Body } from '../../support/anthropic-wire.js'

const choices: (ToolChoice | undefined)[] = [
  undefined,
  'auto',
  'required',
  'none',
  { type: 'function', name: 'get_weather' },
]
const knobs: (boolean | undefined)[] = [undefined, true, false]

/** The table the docs promise, written out independently of the implementation. */
function expected(choice: ToolChoice | undefined, parallel: boolean | undefined): Record<string, unknown> | undefined {
  const serial = parallel === false ? { disable_parallel_tool_use: true } : {}
  if (choice === undefined) return parallel === false ? { type: 'auto', disable_parallel_tool_use: true } : undefined
  if (choice === 'none') return { type: 'none' }
  if (choice === 'auto') return { type: 'auto', ...serial }
  if (choice === 'required') return { type: 'any', ...serial }
  return { type: 'tool', name: choice.name, ...serial }
}

describe('toAnthropicToolChoice', () => {
  for (const choice of choices) {
    for (const parallel of knobs) {
      const label = `${JSON.stringify(choice) ?? 'no choice'} with parallelToolCalls ${String(parallel)}`
      it(`maps ${label}`, () => {
        const want = expected(choice, parallel)
        expect(toAnthropicToolChoice(choice, { parallelToolCalls: parallel })).toEqual(
          want === undefined ? {} : { tool_choice: want },
        )
      })
    }
  }

  it('never puts disable_parallel_tool_use on none', () => {
    expect(toAnthropicToolChoice('none', { parallelToolCalls: false }).tool_choice).not.toHaveProperty(
      'disable_parallel_tool_use',
    )
  })
})

describe('anthropic provider request body for tool choice', () => {
  let server: WireServer
  beforeAll(async () => {
    server = await startWireServer()
    server.fallback = () => ({ body: scenario('text.sse') })
  })
  afterAll(() => server.close())

  it('sends every choice and knob combination as tool_choice beside tools with input_schema', async () => {
    const provider = anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' })
    for (const choice of choices) {
      for (const parallel of knobs) {
        server.requests.length = 0
        const req = request({ tools: [weatherTool] })
        if (choice !== undefined) req.toolChoice = choice
        if (parallel !== undefined) req.parallelToolCalls = parallel
        const { final } = await collect(provider.stream(req))
        expect(final.type).toBe('done')
        const body = server.requests[0]!.json as Body
        expect(body.tools).toEqual([
          {
            name: 'get_weather',
            description: 'Forecast for a place',
            input_schema: {
              type: 'object',
              properties: { location: { type: 'string' }, days: { type: 'integer' } },
              required: ['location'],
            },
          },
        ])
        expect(body.tool_choice).toEqual(expected(choice, parallel))
      }
    }
  })

  it('omits tools and tool_choice when no tool is offered', async () => {
    server.requests.length = 0
    await collect(
      anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(
        request({ toolChoice: 'required', parallelToolCalls: false }),
      ),
    )
    const body = server.requests[0]!.json as Body
    expect(body).not.toHaveProperty('tools')
    expect(body).not.toHaveProperty('tool_choice')
  })

  it('forces input_schema.type to object and drops $schema', async () => {
    server.requests.length = 0
    const tool = {
      name: 'noop',
      description: 'x',
      parameters: { $schema: 'http://json-schema.org/draft-07/schema#', properties: {} },
    }
    await collect(anthropic({ baseURL: server.url, apiKey: 'sk-ant-test' }).stream(request({ tools: [tool] })))
    expect((server.requests[0]!.json as Body).tools).toEqual([
      { name: 'noop', description: 'x', input_schema: { type: 'object', properties: {} } },
    ])
  })
})
