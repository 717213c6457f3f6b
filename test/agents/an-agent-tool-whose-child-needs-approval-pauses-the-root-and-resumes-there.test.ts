import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { call, collect, lastToolResult } from './support.js'

const published: string[] = []

class Releaser extends Agent {
  instructions = 'You release builds.'

  @tool({ description: 'Publish a build', parameters: z.object({ build: z.string() }), needsApproval: true })
  publish({ build }: { build: string }) {
    published.push(build)
    return `published ${build}`
  }
}

describe('agent.asTool() when the child exec needs an approval and nobody up the tree has a handler', () => {
  it('the root pauses with the child’s call in pending (with its path), nothing says aborted, and a resume of the root finishes both', async () => {
    let modelCalls = 0
    const provider = scripted((request) => {
      modelCalls++
      const answer = lastToolResult(request)
      if (request.system === 'You release builds.')
        return answer === undefined ? call('publish', { build: '7.1' }) : 'released'
      return answer === undefined ? call('release', { input: 'ship 7.1' }) : `parent saw: ${answer}`
    })
    const runtime = new Runtime({ provider, model: 'm' })
    const release = new Releaser().asTool({ name: 'release', description: 'Release a build' })
    const { events, result } = await collect(runtime.exec('ship it', { tools: [release] }))
    expect(result.status).toBe('paused')
    const waiting = result.pending!.approvals
    expect(waiting).toEqual([expect.objectContaining({ toolName: 'publish', args: { build: '7.1' }, depth: 1 })])
    expect(waiting[0]!.path).toHaveLength(2)
    expect(waiting[0]!.path[0]).toBe(result.execId)
    expect(JSON.stringify(events)).not.toMatch(/aborted/)
    expect(published).toEqual([])
    expect(modelCalls).toBe(2)

    const done = await runtime.resume(
      JSON.parse(JSON.stringify(result.pending!.state)),
      { approve: [waiting[0]!.toolCallId] },
      { tools: [release] },
    )
    expect(done.status).toBe('completed')
    expect(done.text).toBe('parent saw: released')
    expect(published).toEqual(['7.1'])
    // The child's first turn came from the journal: only its second turn and the root's last were asked.
    expect(modelCalls).toBe(4)
  })
})
