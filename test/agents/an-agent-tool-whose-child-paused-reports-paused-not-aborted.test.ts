import { Agent, tool } from '@nestor/agents'
import { Runtime, type EventOf } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, lastToolResult } from '../support/agent-runs.js'

class Releaser extends Agent {
  instructions = 'You release builds.'

  @tool({ description: 'Publish a build', parameters: z.object({ build: z.string() }), needsApproval: true })
  publish({ build }: { build: string }) {
    return `published ${build}`
  }
}

describe('agent.asTool() when the child exec pauses for approval', () => {
  it('the tool reports status paused with what waits, and the parent goes on; nothing says aborted', async () => {
    const provider = scripted((request) => {
      const answer = lastToolResult(request)
      if (request.system === 'You release builds.')
        return answer === undefined ? call('publish', { build: '7.1' }) : 'released'
      return answer === undefined ? call('release', { input: 'ship 7.1' }) : `parent saw: ${answer}`
    })
    const runtime = new Runtime({ provider, model: 'm' })
    const { events, result } = await collect(
      runtime.exec('ship it', { tools: [new Releaser().asTool({ name: 'release', description: 'Release a build' })] }),
    )
    expect(result.status).toBe('completed')
    const end = events.find((e): e is EventOf<'tool_end'> => e.type === 'tool_end' && e.toolName === 'release')!
    expect(end.receipt.status).not.toBe('aborted')
    expect(end.result.details).toMatchObject({
      status: 'paused',
      pending: [{ toolName: 'publish', args: { build: '7.1' } }],
    })
    expect(result.text).toMatch(/parent saw: agent release paused: it waits for approval of publish/)
    expect(JSON.stringify(end)).not.toMatch(/aborted/)
  })
})
