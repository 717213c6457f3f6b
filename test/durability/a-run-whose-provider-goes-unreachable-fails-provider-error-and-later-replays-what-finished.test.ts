import { afterEach, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, memoryJournal, type AgentEvent } from '@nestor/core'
import { openai } from '@nestor/providers'
import { text, toolCalls } from '../support/openai-loop-wire.js'
import { collect } from '../support/run.js'
import { startWireServer, type WireServer } from '../support/wire-server.js'

// docs/durability.md, "network to the provider down": the provider's host stops answering between
// two model turns (its server closes while a tool runs: connection refused from then on).

const servers: WireServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close().catch(() => undefined)
})
const serve = async () => {
  const server = await startWireServer()
  servers.push(server)
  return server
}

it('the provider unreachable after a finished turn and tool: retry events, then provider_error with a valid history; the same run replays both once the provider is back', async () => {
  const down = await serve()
  down.enqueue({ body: toolCalls({ id: 'c1', name: 'lookup', args: { city: 'Lisbon' } }) })
  let bodies = 0
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look a city up',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => {
      bodies++
      if (bodies === 1) await down.close() // the network goes down before the next model call
      return `facts about ${city}`
    },
  })
  const journal = memoryJournal()
  const providerAt = (server: WireServer) =>
    openai({ baseURL: `${server.url}/v1`, apiKey: 'sk-durability-test', maxRetries: 1 })
  const options = { tools: [lookup], journal, runId: 'trip-offline' }

  const first = await collect(new Runtime({ provider: providerAt(down), model: 'gpt-4o-mini' }).exec('go', options))
  expect(first.result.status).toBe('failed')
  expect(first.result.error).toMatchObject({ code: 'provider_error' })
  expect(first.events.filter((e: AgentEvent) => e.type === 'retry')).toHaveLength(1)
  // Valid: the call has its result; the failed turn is a message without calls, stopReason error.
  expect(first.result.history.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant'])
  expect(first.result.history.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'error', content: [] })
  expect(down.requests).toHaveLength(1)

  const back = await serve()
  back.enqueue({ body: text('Lisbon: trams and tiles') })
  const again = await new Runtime({ provider: providerAt(back), model: 'gpt-4o-mini' }).exec('go', options)
  expect(again.status).toBe('completed')
  expect(again.text).toBe('Lisbon: trams and tiles')
  // The finished turn and tool came from the journal: one model call, and the body did not run again.
  expect(back.requests).toHaveLength(1)
  expect(bodies).toBe(1)
})
