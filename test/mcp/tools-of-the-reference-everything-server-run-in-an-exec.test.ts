import { Runtime } from '@nestor/core'
import { plainToolContent } from '@nestor/core/integration-kit'
import { mcpTools, type McpTools } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calls, historyProblems } from '../support/run.js'
import { everythingServer, textOfResult, toolResults } from '../support/mcp-servers.js'

// @modelcontextprotocol/server-everything, the protocol's reference server, over stdio.
describe('the everything server through a Nestor exec', () => {
  let mcp: McpTools
  beforeAll(async () => {
    mcp = await mcpTools(everythingServer(), { prefix: 'ev_' })
  })
  afterAll(() => mcp?.close())

  const run = async (...list: { name: string; args?: Record<string, unknown> }[]) => {
    const provider = scripted([calls(...list), 'done'])
    const result = await new Runtime({ provider, model: 'm' }).exec('go', { tools: mcp.tools })
    expect(historyProblems(result.history)).toEqual([])
    return { provider, result, results: toolResults(result.history) }
  }

  it('lists the server tools to the model with their prefixed names and input schemas', async () => {
    const { provider } = await run()
    const echo = provider.requests[0]!.tools.find((t) => t.name === 'ev_echo')
    expect(echo).toMatchObject({
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    })
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['ev_get-sum', 'ev_get-tiny-image']),
    )
  })

  it('calls a tool and gives its text to the model', async () => {
    const { results } = await run({ name: 'ev_echo', args: { message: 'hello mcp' } })
    expect(results[0]).toMatchObject({ isError: false })
    expect(textOfResult(results[0]!)).toContain('hello mcp')
  })

  it('validates arguments against the server schema before calling', async () => {
    const { results, result } = await run({ name: 'ev_get-sum', args: { a: 'one', b: 2 } })
    expect(results[0]).toMatchObject({ isError: true })
    expect(result.receipts[0]).toMatchObject({ status: 'invalid_arguments', attempts: 0 })
  })

  it('passes image content through as an image part', async () => {
    const { results } = await run({ name: 'ev_get-tiny-image' })
    const image = results[0]!.content.find((c) => c.type === 'image')
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' })
    expect(
      Buffer.from((image as { data: string }).data, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG')
  })

  it('keeps structured content in details', async () => {
    const { results } = await run({ name: 'ev_get-structured-content', args: { location: 'New York' } })
    expect(results[0]!.isError).toBe(false)
    expect(results[0]!.details).toMatchObject({ temperature: expect.any(Number) })
  })

  it('keeps resource links and embedded resources as resource parts, which a provider shows as text', async () => {
    const links = await run({ name: 'ev_get-resource-links', args: { count: 2 } })
    const link = links.results[0]!.content.find((c) => c.type === 'resource_link')
    expect(link).toMatchObject({ type: 'resource_link', uri: expect.stringMatching(/^\S+:\/\/\S+/) })
    const embedded = await run({ name: 'ev_get-resource-reference', args: { resourceType: 'Text', resourceId: 1 } })
    const resource = embedded.results[0]!.content.find((c) => c.type === 'resource')
    expect(resource).toMatchObject({
      type: 'resource',
      resource: { uri: expect.any(String), text: expect.any(String) },
    })
    // What a provider adapter sends for them (see plainToolContent).
    const text = plainToolContent(embedded.results[0]!, () => false).map((p) => (p.type === 'text' ? p.text : ''))
    expect(text.join('\n')).toMatch(/\[resource \S+\]\n/)
  })
})
