import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Runtime, defineTool, loadRegistry, type DeclaredRegistry, type Tool } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'
import { thrown } from '../support/thrown.js'

const TOOLS = `
export function lookupOrder({ id }) { return 'order ' + id + ' shipped' }
export async function waitForever(_args, ctx) {
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))
  return 'too late'
}
`
const MANIFEST = {
  agents: [
    {
      id: 'desk',
      tools: [
        { name: 'lookup_order', callable: './tools.mjs#lookupOrder', description: 'Looks an order up' },
        { name: 'wait_forever', callable: './tools.mjs#waitForever', description: 'Slow', needsApproval: true },
      ],
      toolTimeoutMs: 20,
    },
  ],
}

async function declared(): Promise<DeclaredRegistry> {
  const dir = scratchDir('nestor-owner-')
  writeFileSync(join(dir, 'tools.mjs'), TOOLS)
  writeFileSync(join(dir, 'registry.json'), JSON.stringify(MANIFEST))
  return loadRegistry(join(dir, 'registry.json'))
}

const note = defineTool({
  name: 'take_note',
  description: 'Takes a note',
  parameters: { type: 'object', properties: {} },
  execute: () => 'noted',
})
const toolNames = (request: unknown) => (request as { tools: { name: string }[] }).tools.map((t) => t.name)

describe("exec({ owner, tools }): the exec's tools join the owner's", () => {
  it("the model sees the owner's tools and the exec's, and both run", async () => {
    const provider = scripted([calls({ name: 'take_note' }, { name: 'lookup_order', args: { id: '7' } }), 'done'])
    const runtime = new Runtime({ provider, model: 'm', registry: await declared() })
    const result = await runtime.exec('go', { owner: 'desk', tools: [note] })
    expect(toolNames(provider.requests[0])).toEqual(['lookup_order', 'wait_forever', 'take_note'])
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['take_note', 'ok'],
      ['lookup_order', 'ok'],
    ])
  })

  it("a tool of the exec named like one of the owner's is refused, naming the owner's allowedTools", async () => {
    const runtime = new Runtime({ provider: scripted([]), model: 'm', registry: await declared() })
    const twin = { ...note, spec: { ...note.spec, name: 'lookup_order' } } as Tool
    const error = thrown(() => runtime.exec('go', { owner: 'desk', tools: [twin] }))
    expect(error.code).toBe('invalid_options')
    expect(error.message).toBe(
      `invalid option tools: expected names other than those of owner desk's allowedTools (lookup_order, wait_forever), got "lookup_order"`,
    )
  })

  it("an owner's allowedTools naming a tool its registry lacks is refused under that name, not toolsAllow", () => {
    const owners = new Map([['desk', { allowedTools: ['lookup_order', 'ghost'] }]])
    const registry = { list: () => [note], owners }
    const error = thrown(() =>
      new Runtime({ provider: scripted([]), model: 'm', registry }).exec('go', { owner: 'desk' }),
    )
    expect(error.message).toMatch(
      /^invalid option owner desk's allowedTools: expected names of tools .*got "lookup_order"/,
    )
  })
})

describe("a resumed owner's exec", () => {
  it("keeps the owner's toolTimeoutMs", async () => {
    const registry = await declared()
    const first = new Runtime({ provider: scripted([calls({ name: 'wait_forever', id: 'w1' })]), model: 'm', registry })
    const paused = await first.exec('go', { owner: 'desk' })
    expect(paused.status).toBe('paused')
    const state = paused.pending!.state
    expect(state.owner).toBe('desk')

    const second = new Runtime({ provider: scripted(['done']), model: 'm', registry })
    // The signal only ends the run if the owner's timeout is lost (the old behaviour): no timing is asserted.
    const resumed = await second.resume(state, { approve: ['w1'] }, { signal: AbortSignal.timeout(20_000) })
    expect(resumed.receipts.map((r) => r.status)).toEqual(['timeout'])
    expect(resumed.status).toBe('completed')

    // Same tools, no owners: the state is refused rather than run without the owner's limits.
    const stranger = new Runtime({
      provider: scripted(['done']),
      model: 'm',
      registry: { list: () => registry.list() },
    })
    const refused = thrown(() => stranger.resume(state, { approve: ['w1'] }))
    expect(refused.code).toBe('invalid_state')
    expect(refused.message).toContain("it names owner desk, which this runtime's registry lacks")
  })
})
