import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NestorError, Runtime, loadRegistry, registry, type DeclaredRegistry } from '@nestor/core'
import { scripted } from '@nestor/providers'
import { calls, historyProblems } from '../support/run.js'
import { scratchDir } from '../support/scratch-dir.js'
import { thrown } from '../support/thrown.js'

// Real modules next to the manifest: callables are imported from them relative to the manifest.
const ORDERS = `
export const seen = []
export function lookupOrder({ id }) { seen.push(id); return 'order ' + id + ' shipped' }
export async function waitForever(_args, ctx) {
  await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))
  return 'too late'
}
export const notAFunction = 42
`
const BILLING = `export function refund({ id }) { return 'refunded ' + id }\n`

const idSchema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }
const manifest = {
  agents: [
    {
      id: 'worker-a',
      tools: [
        {
          name: 'lookup_order',
          callable: './orders.mjs#lookupOrder',
          description: 'Looks an order up',
          inputSchema: idSchema,
          outputSchema: { type: 'string' },
          cacheable: true,
        },
        { name: 'wait_forever', callable: './orders.mjs#waitForever', description: 'Never answers by itself' },
      ],
      maxToolCalls: 2,
      toolTimeoutMs: 5,
    },
  ],
  subagents: [
    {
      id: 'worker-b',
      tools: [{ name: 'refund', callable: './billing.mjs#refund', description: 'Refunds', inputSchema: idSchema }],
      allowedTools: ['refund', 'lookup_order'],
    },
  ],
}

const yaml = `# the same owners as the JSON manifest
agents:
  - id: worker-a
    tools:
      - name: lookup_order
        callable: ./orders.mjs#lookupOrder
        description: Looks an order up
        inputSchema:
          type: object
          properties: { id: { type: string } }
          required: [id]
        outputSchema: { type: string }
        cacheable: true
      - name: wait_forever
        callable: ./orders.mjs#waitForever
        description: Never answers by itself
    maxToolCalls: 2
    toolTimeoutMs: 5
subagents:
  - id: worker-b
    tools:
      - name: refund
        callable: ./billing.mjs#refund
        description: Refunds
        inputSchema:
          type: object
          properties: { id: { type: string } }
          required: [id]
    allowedTools: [refund, lookup_order]
`

/** A temp dir with the tool modules and one manifest file; returns the manifest's path. */
function writeManifest(file: string, text: string): string {
  const dir = scratchDir('nestor-registry-')
  writeFileSync(join(dir, 'orders.mjs'), ORDERS)
  writeFileSync(join(dir, 'billing.mjs'), BILLING)
  writeFileSync(join(dir, file), text)
  return join(dir, file)
}

const formats = [
  ['JSON', () => writeManifest('registry.json', JSON.stringify(manifest, null, 2))],
  ['YAML', () => writeManifest('registry.yaml', yaml)],
] as const

const toolNames = (request: unknown) => (request as { tools: { name: string }[] }).tools.map((t) => t.name)
const runtimeOf = (provider: ReturnType<typeof scripted>, reg: DeclaredRegistry) =>
  new Runtime({ provider, model: 'm', registry: reg })

describe.each(formats)('a %s manifest of two owners', (_format, write) => {
  it('loads both owners with their tools and defaults', async () => {
    const reg = await loadRegistry(write())
    expect(reg.list().map((t) => t.spec.name)).toEqual(['lookup_order', 'wait_forever', 'refund'])
    expect(reg.owners.get('worker-a')).toEqual({
      id: 'worker-a',
      kind: 'agents',
      tools: ['lookup_order', 'wait_forever'],
      allowedTools: ['lookup_order', 'wait_forever'],
      maxToolCalls: 2,
      toolTimeoutMs: 5,
    })
    expect(reg.owners.get('worker-b')?.allowedTools).toEqual(['refund', 'lookup_order'])
  })

  it("an exec with owner worker-a sees and runs only worker-a's tools; another owner's tool is refused", async () => {
    const reg = await loadRegistry(write())
    const provider = scripted([
      calls({ name: 'lookup_order', args: { id: '7' } }),
      calls({ name: 'refund', args: { id: '7' } }),
      'done',
    ])
    const result = await runtimeOf(provider, reg).exec('where is order 7?', { owner: 'worker-a' })
    expect(toolNames(provider.requests[0])).toEqual(['lookup_order', 'wait_forever'])
    expect(result.receipts.map((r) => [r.toolName, r.status])).toEqual([
      ['lookup_order', 'ok'],
      ['refund', 'unknown_tool'],
    ])
    expect(JSON.stringify(result.history)).toContain('order 7 shipped')
    expect(historyProblems(result.history)).toEqual([])
  })

  it("the owner's allowedTools may name another owner's tool", async () => {
    const provider = scripted(['done'])
    await runtimeOf(provider, await loadRegistry(write())).exec('go', { owner: 'worker-b' })
    expect(toolNames(provider.requests[0])).toEqual(['lookup_order', 'refund'])
  })
})

describe("an owner's defaults", () => {
  it("apply maxToolCalls and toolTimeoutMs to the owner's exec", async () => {
    const reg = await loadRegistry(formats[0][1]())
    const provider = scripted([
      calls({ name: 'wait_forever' }),
      calls({ name: 'lookup_order', args: { id: '1' } }, { name: 'lookup_order', args: { id: '2' } }),
      'never',
    ])
    const result = await runtimeOf(provider, reg).exec('go', { owner: 'worker-a' })
    expect(result.receipts.map((r) => r.status)).toEqual(['timeout', 'ok', 'skipped'])
    expect(result.status).toBe('failed')
    expect(result.error?.code).toBe('budget_exceeded')
    expect(result.error?.message).toContain('maxToolCalls')
  })

  it('lose to the options the exec gives itself', async () => {
    const reg = await loadRegistry(formats[1][1]())
    const provider = scripted([
      calls({ name: 'refund', args: { id: '1' } }, { name: 'refund', args: { id: '2' } }),
      calls({ name: 'refund', args: { id: '3' } }),
      'done',
    ])
    const result = await runtimeOf(provider, reg).exec('go', {
      owner: 'worker-a',
      toolsAllow: ['refund'],
      maxToolCalls: 3,
    })
    expect(toolNames(provider.requests[0])).toEqual(['refund'])
    expect(result.status).toBe('completed')
    expect(result.receipts.map((r) => r.status)).toEqual(['ok', 'ok', 'ok'])
  })

  it('an exec without an owner is not limited by any owner', async () => {
    const provider = scripted(['done'])
    await runtimeOf(provider, await loadRegistry(formats[0][1]())).exec('go')
    expect(toolNames(provider.requests[0])).toEqual(['lookup_order', 'wait_forever', 'refund'])
  })

  it('an unknown owner, or an owner on a runtime without a declared registry, is invalid_options naming owner', async () => {
    const reg = await loadRegistry(formats[0][1]())
    const provider = scripted(['never'])
    const unknown = thrown(() => runtimeOf(provider, reg).exec('go', { owner: 'worker-z' }))
    expect(unknown.code).toBe('invalid_options')
    expect(unknown.message).toMatch(/invalid option owner: .*worker-a, worker-b.*"worker-z"/)
    const none = thrown(() => new Runtime({ provider, model: 'm' }).exec('go', { owner: 'worker-a' }))
    expect(none.message).toMatch(/invalid option owner: .*none declared/)
    const notAnId = thrown(() => runtimeOf(provider, reg).exec('go', { owner: 5 as unknown as string }))
    expect(notAnId.message).toBe('invalid option owner: expected a non-empty owner id, got 5')
    expect(provider.requests).toHaveLength(0)
  })
})

describe('a manifest that breaks several rules', () => {
  const bad = {
    agents: [
      {
        id: 'worker-a',
        tools: [
          { name: 'lookup_order', callable: './orders.mjs#lookupOrder', description: 'ok' },
          { name: 'ghost', callable: './missing.mjs#run', description: 'module missing' },
          { name: 'not_fn', callable: './orders.mjs#notAFunction', description: 'not a function' },
          { name: 'no_export', callable: './orders.mjs#nothing', description: 'export missing' },
          {
            name: 'bad_schema',
            callable: './orders.mjs#lookupOrder',
            description: 'invalid schema',
            inputSchema: { type: 'object', properties: { id: { type: 'strng' } } },
          },
        ],
        allowedTools: ['lookup_order', 'unregistered'],
        budget: 3,
      },
    ],
    subagents: [{ id: 'worker-a', tools: [] }],
  }

  it('fails with one invalid_options listing every problem, each naming owner, tool and field, and registers nothing', async () => {
    const before = registry.list().length
    const error = await loadRegistry(writeManifest('bad.json', JSON.stringify(bad))).catch((e: unknown) => e)
    expect(NestorError.isInstance(error)).toBe(true)
    const { code, issues, message } = error as NestorError
    expect(code).toBe('invalid_options')
    // Exports are checked only once everything else passes: no module's code runs for a bad manifest.
    expect(issues).toEqual([
      expect.stringMatching(/^owner worker-a, field budget: unknown key/),
      'owner worker-a, field id: duplicate owner id (at agents[0] and subagents[0])',
      expect.stringMatching(/^owner worker-a, tool ghost, field callable: module \.\/missing\.mjs not found/),
      expect.stringMatching(/^owner worker-a, tool bad_schema, field inputSchema: invalid JSON Schema: .*"strng"/),
      'owner worker-a, field allowedTools: unregistered is not a tool of this manifest',
    ])
    expect(message).toContain('5 problems (no callable was imported')
    for (const issue of issues!) expect(message).toContain(issue)
    expect(registry.list()).toHaveLength(before)
  })

  it('once all else passes, every export that is missing or not a function is listed', async () => {
    const tools = [
      { name: 'lookup_order', callable: './orders.mjs#lookupOrder', description: 'ok' },
      { name: 'not_fn', callable: './orders.mjs#notAFunction', description: 'not a function' },
      { name: 'no_export', callable: './orders.mjs#nothing', description: 'export missing' },
    ]
    const file = writeManifest('exports.json', JSON.stringify({ agents: [{ id: 'worker-a', tools }] }))
    const error = await loadRegistry(file).catch((e: unknown) => e)
    expect((error as NestorError).issues).toEqual([
      'owner worker-a, tool not_fn, field callable: export notAFunction of ./orders.mjs is not a function (typeof number)',
      'owner worker-a, tool no_export, field callable: module ./orders.mjs has no export nothing',
    ])
  })

  it('mistyped fields and entries are each reported, and the rest is still checked', async () => {
    const text = `agents:
  - id: 5
    tools: nope
    maxToolCalls: -1
  - id: ok
    tools:
      - 3
      - { name: 'bad name!', callable: ./missing.mjs#run, description: d, inputSchema: { type: string } }
  - 7
`
    const error = await loadRegistry(writeManifest('mistyped.yaml', text)).catch((e: unknown) => e)
    expect((error as NestorError).issues).toEqual([
      'owner agents[0], field id: expected a non-empty owner id, got 5',
      'owner agents[0], field tools: expected an array of tools, got "nope"',
      'owner agents[0], field maxToolCalls: expected an integer >= 0, got -1',
      'owner ok, tool tools[0]: expected an object, got 3',
      'owner agents[2]: expected an object, got 7',
      expect.stringMatching(/^owner ok, tool bad name!, field name: invalid tool name "bad name!"/),
      'owner ok, tool bad name!, field inputSchema: the root must be an object schema, got type "string"',
      expect.stringMatching(/^owner ok, tool bad name!, field callable: module \.\/missing\.mjs not found/),
    ])
  })

  it('a file that is not a manifest fails the same way', async () => {
    const notYaml = await loadRegistry(writeManifest('bad.yaml', 'agents: [\n')).catch((e: unknown) => e)
    expect((notYaml as NestorError).issues).toEqual([expect.stringMatching(/^file: not valid YAML/)])
    const missing = await loadRegistry(join(scratchDir('nestor-registry-'), 'none.json')).catch((e: unknown) => e)
    expect((missing as NestorError).issues).toEqual([expect.stringMatching(/^file: cannot be read/)])
  })
})
