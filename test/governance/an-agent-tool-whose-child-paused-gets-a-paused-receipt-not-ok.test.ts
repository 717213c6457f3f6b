import { Agent, tool } from '@nestor/agents'
import { Runtime, type EventOf } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls, collect } from '../support/run.js'

class Releaser extends Agent {
  instructions = 'You release builds.'

  @tool({ description: 'Publish a build', parameters: z.object({ build: z.string() }), needsApproval: true })
  publish({ build }: { build: string }) {
    return `published ${build}`
  }
}

const lastToolResult = (messages: { role: string }[]) => messages.findLast((m) => m.role === 'toolResult')

describe('a tool call whose nested exec paused for approval', () => {
  it('gets a paused receipt, on its tool_end and in result.receipts, never ok', async () => {
    const provider = scripted((request) => {
      const answered = lastToolResult(request.messages) !== undefined
      if (request.system === 'You release builds.')
        return answered ? 'released' : calls({ name: 'publish', args: { build: '7.1' } })
      return answered ? 'done' : calls({ name: 'release', args: { input: 'ship 7.1' }, id: 'c-release' })
    })
    const runtime = new Runtime({ provider, model: 'm' })
    const { events, result } = await collect(
      runtime.exec('ship it', { tools: [new Releaser().asTool({ name: 'release', description: 'Release a build' })] }),
    )
    expect(result.status).toBe('completed')
    const end = events.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.toolName === 'release')!
    expect(end.receipt.status).toBe('paused')
    expect(result.receipts.find((r) => r.toolCallId === 'c-release')?.status).toBe('paused')
  })
})
