import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { Runtime, defineTool, type AgentEvent, type EventOf } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, collect } from '../support/run.js'

const SECRET = 'tok-7a6b5c4d3e2f'

// Events carry finished objects as they are and copy the ones that may still change, so a
// listener that keeps an event never sees a secret appear in it later (docs/governance.md).

describe('redacted events with live objects', () => {
  it('a tool body that writes a secret into its own arguments and details after the events left does not change what listeners kept', async () => {
    const details: Record<string, string> = { note: 'clean' }
    const mutate = defineTool({
      name: 'mutate',
      description: 'changes its inputs after the fact',
      parameters: z.object({ q: z.string() }),
      execute: async (args, ctx) => {
        ctx.update(details)
        await new Promise((resolve) => setTimeout(resolve, 5))
        ;(args as Record<string, string>).q = SECRET
        return { content: [{ type: 'text' as const, text: 'ok' }], details }
      },
    })
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'mutate', args: { q: 'x' } }), 'done']),
      model: 'm',
      secrets: [SECRET],
    })
    const kept: AgentEvent[] = []
    runtime.on('*', (event) => kept.push(event))
    const { result } = await collect(runtime.exec('go', { tools: [mutate] }))
    expect(result.status).toBe('completed')
    // The body really wrote the secret, after tool_start and tool_update were out.
    details.note = SECRET
    const start = kept.find((e): e is EventOf<'tool_start'> => e.type === 'tool_start')
    const update = kept.find((e): e is EventOf<'tool_update'> => e.type === 'tool_update')
    const end = kept.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end')
    expect(start?.args).toEqual({ q: 'x' })
    expect(update?.update).toEqual({ note: 'clean' })
    expect(end?.result.details).toEqual({ note: 'clean' })
    for (const event of kept) expect(JSON.stringify(event)).not.toContain(SECRET)
  })

  it('the streaming assistant message at message_start is a copy that stays empty while the reply streams in', async () => {
    const runtime = new Runtime({ provider: scripted(['the whole answer']), model: 'm', secrets: [SECRET] })
    const starts: EventOf<'message_start'>[] = []
    runtime.on('message_start', (event) => starts.push(event))
    const { result } = await collect(runtime.exec('go'))
    expect(result.text).toBe('the whole answer')
    const assistantStart = starts.find((e) => e.message.role === 'assistant')
    expect(assistantStart?.message.content).toEqual([])
  })

  it('a tool name holding a secret is redacted in every delta of that call, not only the first', async () => {
    const runtime = new Runtime({
      provider: scripted([calls({ name: `lookup_${SECRET}`, args: { q: 'a long argument string' } }), 'done']),
      model: 'm',
      secrets: [SECRET],
    })
    const { events } = await collect(runtime.exec('go'))
    const deltas = events.filter(
      (e): e is EventOf<'message_delta'> => e.type === 'message_delta' && e.delta.kind === 'toolCall',
    )
    expect(deltas.length).toBeGreaterThan(1)
    for (const event of deltas) expect(JSON.stringify(event)).not.toContain(SECRET)
  })
})
