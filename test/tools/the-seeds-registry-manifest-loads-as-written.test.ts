import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { NestorError, Runtime, loadRegistry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'

// The seed system's owner block as DESIGN.md "Seed fidelity" describes it: owners and tools as
// maps keyed by their ids, snake_case fields, runner defaults in their own block, seconds.
const SEED = `subagents:
  order-desk:
    tools:
      lookup_order:
        callable: ./desk.mjs#lookupOrder
        description: Looks an order up
        input_schema:
          type: object
          properties: { id: { type: string } }
          required: [id]
        output_schema: { type: string }
        cacheable: true
      refund:
        callable: ./desk.mjs#refund
        description: Refunds an order
        input_schema: { type: object, properties: { id: { type: string } }, required: [id] }
        needs_approval: true
      ship:
        callable: ./desk.mjs#ship
        description: Ships an order
        control: { statusField: status, continueStatuses: [shipped], stopStatuses: [held] }
      wait_forever:
        callable: ./desk.mjs#waitForever
        description: Never answers by itself
    runner_defaults:
      allowed_tools: [lookup_order, refund, ship, wait_forever]
      max_calls: 8
      tool_timeout_s: 0.05
`
const DESK = `
export function lookupOrder({ id }) { return 'order ' + id + ' shipped' }
export function refund({ id }) { return 'refunded ' + id }
export function ship() { return { status: 'held' } }
export async function waitForever(_args, ctx) {
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))
  return 'too late'
}
`
// Running this module's code leaves a file behind: proof of whether loadRegistry imported it.
const MARKER = `import { writeFileSync } from 'node:fs'
writeFileSync(new URL('./imported', import.meta.url), 'yes')
export function run() { return 'ran' }
`

function folder(files: Record<string, string>): string {
  const dir = scratchDir('nestor-seed-')
  writeFileSync(join(dir, 'desk.mjs'), DESK)
  writeFileSync(join(dir, 'marker.mjs'), MARKER)
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return dir
}
const issuesOf = (error: unknown) => (error as NestorError).issues

describe("the seed's owner block", () => {
  it('loads as written: ids from the keys, snake_case fields, runner defaults with the timeout in seconds', async () => {
    const reg = await loadRegistry(join(folder({ 'toolloop.yml': SEED }), 'toolloop.yml'))
    expect(reg.owners.get('order-desk')).toEqual({
      id: 'order-desk',
      kind: 'subagents',
      tools: ['lookup_order', 'refund', 'ship', 'wait_forever'],
      allowedTools: ['lookup_order', 'refund', 'ship', 'wait_forever'],
      maxToolCalls: 8,
      toolTimeoutMs: 50,
    })
    const lookup = reg.get('lookup_order')!
    expect(lookup.spec.parameters).toMatchObject({ required: ['id'] })
    expect(lookup.cacheable).toBe(true)
    expect(reg.get('refund')?.needsApproval).toBe(true)
  })

  it("runs an owner's exec with its needs_approval, control and tool_timeout_s", async () => {
    const reg = await loadRegistry(join(folder({ 'toolloop.yml': SEED }), 'toolloop.yml'))
    const runtime = new Runtime({
      provider: scripted([calls({ name: 'wait_forever' }), calls({ name: 'ship' }), 'x']),
      model: 'm',
      registry: reg,
    })
    const shipped = await runtime.exec('ship it', { owner: 'order-desk' })
    expect(shipped.receipts.map((r) => r.status)).toEqual(['timeout', 'ok'])
    expect(shipped.receipts[1]?.control).toMatchObject({ status: 'held', decision: 'stop' })

    const paying = new Runtime({
      provider: scripted([calls({ name: 'refund', args: { id: '7' } })]),
      model: 'm',
      registry: reg,
    })
    const paused = await paying.exec('refund 7', { owner: 'order-desk' })
    expect(paused.status).toBe('paused')
    expect(paused.pending?.approvals.map((p) => p.toolName)).toEqual(['refund'])
  })

  it('a bad variant fails with one invalid_options listing every problem in the seed spelling, importing nothing', async () => {
    const bad = `agents:
  order-desk: {}
subagents:
  order-desk:
    budget: 3
    tools:
      lookup_order:
        callable: ./marker.mjs#run
        description: ok
        inputSchema: { type: object }
        output_schema: { type: strng }
      'bad name!':
        callable: ./marker.mjs#run
        description: d
      ship:
        callable: ./marker.mjs#run
        description: d
        control: { statusField: status, continueStatuses: [ok], stopStatuses: [ok] }
      ghost:
        callable: ./missing.mjs#run
      wrong:
        callable: nohash
        description: d
        needs_approval: 'yes'
    runner_defaults:
      allowed_tools: [lookup_order, unregistered]
      max_calls: -1
      tool_timeout_s: '30'
      retries: 2
`
    const dir = folder({ 'toolloop.yml': bad })
    const error = await loadRegistry(join(dir, 'toolloop.yml')).catch((e: unknown) => e)
    expect(NestorError.isInstance(error) && error.code).toBe('invalid_options')
    expect(issuesOf(error)).toEqual([
      expect.stringMatching(/^owner order-desk, field budget: unknown key \(known: tools, runner_defaults\)/),
      'owner order-desk, runner_defaults, field max_calls: expected an integer >= 0, got -1',
      'owner order-desk, runner_defaults, field tool_timeout_s: expected a number >= 0, got "30"',
      expect.stringMatching(/^owner order-desk, runner_defaults, field retries: unknown key/),
      expect.stringMatching(
        /^owner order-desk, tool lookup_order, field inputSchema: unknown key \(known: .*input_schema/,
      ),
      'owner order-desk, tool ghost, field description: missing',
      'owner order-desk, tool wrong, field callable: expected \'module#export\', got "nohash"',
      'owner order-desk, tool wrong, field needs_approval: expected a boolean, got "yes"',
      'owner order-desk, field id: duplicate owner id (at agents.order-desk and subagents.order-desk)',
      expect.stringMatching(/^owner order-desk, tool bad name!, key: invalid tool name "bad name!"/),
      expect.stringMatching(/^owner order-desk, tool ship, field control: .*also in continueStatuses/),
      'owner order-desk, field runner_defaults.allowed_tools: unregistered is not a tool of this manifest',
    ])
    expect(existsSync(join(dir, 'imported'))).toBe(false)
  })

  it('the list form and the map form may sit side by side, one per owner kind', async () => {
    const both = `agents:
  - id: front
    tools: [{ name: greet, callable: ./marker.mjs#run, description: Greets }]
subagents:
  order-desk:
    tools:
      lookup_order: { callable: ./desk.mjs#lookupOrder, description: Looks an order up }
    runner_defaults: { allowed_tools: [lookup_order, greet] }
`
    const dir = folder({ 'both.yaml': both })
    const reg = await loadRegistry(join(dir, 'both.yaml'))
    expect([...reg.owners.keys()]).toEqual(['front', 'order-desk'])
    expect(reg.owners.get('order-desk')?.allowedTools).toEqual(['lookup_order', 'greet'])
    // Only a manifest that passed every other check runs its modules' code.
    expect(existsSync(join(dir, 'imported'))).toBe(true)
  })
})

it("docs/governance.md's seed-form manifest loads as written, next to the example's tools", async () => {
  const root = fileURLToPath(new URL('../..', import.meta.url))
  const docs = readFileSync(join(root, 'docs/governance.md'), 'utf8')
  const block = /```yaml\n(# toolloop\.yml[\s\S]*?)```/.exec(docs)?.[1]
  expect(block).toBeDefined()
  const dir = scratchDir('nestor-seed-doc-')
  copyFileSync(join(root, 'examples/governance/registry-tools.mjs'), join(dir, 'registry-tools.mjs'))
  writeFileSync(join(dir, 'toolloop.yml'), block!)
  const reg = await loadRegistry(join(dir, 'toolloop.yml'))
  expect(reg.owners.get('billing')).toMatchObject({ maxToolCalls: 2, toolTimeoutMs: 2500 })
  expect(reg.get('issue_refund')?.needsApproval).toBe(true)
})

describe('a manifest cannot throw anything but invalid_options', () => {
  it('keys named like Object.prototype members are unknown keys, or ids like any other', async () => {
    const text = `{"constructor": 1, "agents": [{"id": "a", "__proto__": {"x": 1}, "toString": 2, "tools": [
      {"name": "t", "callable": "./desk.mjs#lookupOrder", "description": "d", "hasOwnProperty": true}]}],
      "subagents": {"constructor": {"tools": {"__proto__": {"callable": "./desk.mjs#refund", "description": "d"}}}}}`
    const error = await loadRegistry(join(folder({ 'proto.json': text }), 'proto.json')).catch((e: unknown) => e)
    expect(NestorError.isInstance(error)).toBe(true)
    expect(issuesOf(error)).toEqual([
      expect.stringMatching(/^manifest, field constructor: unknown key/),
      expect.stringMatching(/^owner a, field __proto__: unknown key/),
      expect.stringMatching(/^owner a, field toString: unknown key/),
      expect.stringMatching(/^owner a, tool t, field hasOwnProperty: unknown key/),
    ])
    const fine = `{"subagents": {"constructor": {"tools": {"__proto__": {"callable": "./desk.mjs#refund", "description": "d"}}}}}`
    const reg = await loadRegistry(join(folder({ 'fine.json': fine }), 'fine.json'))
    expect(reg.owners.get('constructor')?.tools).toEqual(['__proto__'])
  })

  it('a schema nested past the limit is a problem naming its owner, tool and field', async () => {
    // Written as text: JSON.stringify itself cannot walk this deep.
    const depth = 20_000
    const schema = `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`
    const tool = `{"callable":"./desk.mjs#lookupOrder","description":"d","input_schema":${schema}}`
    const text = `{"subagents":{"deep":{"tools":{"t":${tool}}}}}`
    const error = await loadRegistry(join(folder({ 'deep.json': text }), 'deep.json')).catch((e: unknown) => e)
    expect(NestorError.isInstance(error)).toBe(true)
    expect(issuesOf(error)).toEqual([
      'owner deep, tool t, field input_schema: expected an object nested at most 64 levels deep, got an object nested deeper than that',
    ])
  })
})
