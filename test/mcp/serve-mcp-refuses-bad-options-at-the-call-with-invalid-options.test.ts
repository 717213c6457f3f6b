import { Runtime, defineTool } from '@nestor/core'
import { serveMcp, type ServeMcpOptions } from '@nestor/mcp'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
})
const runtime = new Runtime({ provider: scripted([]), model: 'm' })
const bad = (options: unknown) => options as ServeMcpOptions

describe('serveMcp checks its options where it is called', () => {
  const cases: [string, unknown, unknown, RegExp][] = [
    ['no runtime', { tools: [echo] }, { http: true, port: 0 }, /invalid option runtime: expected a Runtime/],
    ['a runtime that is not one', { runtime: {}, tools: [echo] }, 'stdio', /invalid option runtime/],
    ['a misspelt key', { runtime, tool: [echo] }, { http: true, port: 0 }, /unknown option tool: did you mean tools\?/],
    ['tools that are not an array', { runtime, tools: echo }, { http: true, port: 0 }, /invalid option tools/],
    [
      'an agent entry without asTool',
      { runtime, agents: [{ name: 'a', description: 'd', agent: {} }] },
      { http: true, port: 0 },
      /invalid option agents/,
    ],
    [
      'a resource with both uri and uriTemplate',
      { runtime, resources: [{ uri: 'a://b', uriTemplate: 'a://{b}', name: 'r', read: () => '' }] },
      { http: true, port: 0 },
      /invalid option resources/,
    ],
    [
      'two resources at one URI',
      { runtime, resources: [1, 2].map(() => ({ uri: 'a://b', name: 'r', read: () => '' })) },
      { http: true, port: 0 },
      /invalid option resources: expected unique resource URIs/,
    ],
    [
      'a prompt without get',
      { runtime, prompts: [{ name: 'p', arguments: [] }] },
      { http: true, port: 0 },
      /invalid option prompts/,
    ],
    ['no transport', { runtime, tools: [echo] }, undefined, /invalid option transport/],
    ['a transport name that is not stdio', { runtime, tools: [echo] }, 'http', /invalid option transport/],
  ]
  for (const [label, options, transport, message] of cases) {
    it(label, async () => {
      await expect(serveMcp(bad(options), transport as 'stdio')).rejects.toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(message),
      })
    })
  }
})
