import { Agent, tool } from '@nestor/agents'
import { Runtime } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { calls } from '../support/run.js'

class Releaser extends Agent {
  instructions = 'You release builds.'

  @tool({ description: 'Publish a build', parameters: z.object({ build: z.string() }), needsApproval: true })
  publish({ build }: { build: string }) {
    return `published ${build}`
  }
}

// Inside an exec tree such a pause pauses the whole tree (test/durability); a batch has no tree to
// pause, so its call ends with the body's answer and a receipt that says what happened.
describe('a batch call whose nested exec paused for approval', () => {
  it('gets a paused receipt, never ok', async () => {
    const provider = scripted(() => calls({ name: 'publish', args: { build: '7.1' } }))
    const runtime = new Runtime({ provider, model: 'm' })
    const release = new Releaser().asTool({ name: 'release', description: 'Release a build' })
    const batch = await runtime.runBatch([{ tool: 'release', args: { input: 'ship 7.1' }, callKey: 'r' }], {
      tools: [release],
    })
    expect(batch.receipts.map((r) => r.status)).toEqual(['paused'])
    expect(batch.results[0]?.result.details).toMatchObject({ status: 'paused' })
  })
})
