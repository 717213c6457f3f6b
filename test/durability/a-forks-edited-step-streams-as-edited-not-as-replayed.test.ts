import { expect, it } from 'vitest'
import { Runtime, defineTool, memoryJournal, type AgentEvent, type Message } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { collect } from '../support/run.js'

const texts = (messages: Message[]) =>
  messages.flatMap((m) => (m.role === 'toolResult' ? m.content.map((c) => (c.type === 'text' ? c.text : '')) : []))

// Searches twice (two turns), then answers from what the searches returned.
const provider = scripted((request) => {
  const seen = texts(request.messages)
  if (seen.length < 2)
    return { content: [{ type: 'toolCall', id: `call_${seen.length}`, name: 'search', arguments: { n: seen.length } }] }
  return `answer from: ${seen.join(' | ')}`
})
const search = defineTool({
  name: 'search',
  description: 'Search',
  parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  execute: ({ n }) => `result ${String(n)}`,
})
/** Each event's journal flag, as `type:flag` (`-` for a live event), for the events a step streams. */
const flags = (events: AgentEvent[]) =>
  events.flatMap((e) => {
    if (e.type !== 'message_end' && e.type !== 'tool_end') return []
    const flag = 'edited' in e && e.edited ? 'edited' : 'replayed' in e && e.replayed ? 'replayed' : '-'
    const what = e.type === 'tool_end' ? `tool ${e.toolCallId}` : `${e.message.role}`
    return [`${what}:${flag}`]
  })

it("a fork's edited tool step streams edited: true (never replayed: true); the recorded steps before it stream replayed", async () => {
  const journal = memoryJournal()
  const runtime = new Runtime({ provider, model: 'm' })
  await runtime.exec('Search twice', { tools: [search], journal, runId: 'run-1' })
  const fork = runtime.fork(
    { journal, runId: 'run-1', at: 'root#2:tool:call_1', edit: { toolResult: 'made up' } },
    { runId: 'run-1-edited', tools: [search] },
  )
  const { events, result } = await collect(fork)
  expect(result.text).toBe('answer from: result 0 | made up')
  expect(flags(events)).toEqual([
    'user:-',
    'assistant:replayed',
    'tool call_0:replayed',
    'toolResult:replayed',
    'assistant:replayed',
    'tool call_1:edited',
    'toolResult:edited',
    'assistant:-',
  ])
  const start = events.find((e) => e.type === 'tool_start' && e.toolCallId === 'call_1')
  expect(start).toMatchObject({ edited: true })
  expect(start).not.toHaveProperty('replayed')
})
