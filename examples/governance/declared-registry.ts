// Declared registries: owners and their tools come from a manifest (registry.yaml), checked whole
// at load; `exec({ owner })` runs with that owner's allowed tools and budgets.
// Run: npx tsc -b && node examples/dist/governance/declared-registry.js
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { NestorError, Runtime, loadRegistry } from '@nestor/core'
import { scripted } from '@nestor/providers'

// Beside this file in examples/governance/; from the built examples/dist/governance/, two up.
const here = dirname(fileURLToPath(import.meta.url))
export const manifest = existsSync(join(here, 'registry.yaml'))
  ? join(here, 'registry.yaml')
  : join(here, '..', '..', 'governance', 'registry.yaml')

const call = (name: string, args: Record<string, unknown>) => ({
  content: [{ type: 'toolCall' as const, name, arguments: args }],
})

export async function main(log: (line: string) => void = console.log) {
  const registry = await loadRegistry(manifest)
  log(`owners: ${[...registry.owners.keys()].join(', ')}`)
  const provider = scripted([
    // support-agent: looks the order up, then tries a tool it is not allowed.
    call('lookup_order', { orderId: 'A-100' }),
    call('issue_refund', { orderId: 'A-100' }),
    'Order A-100 was delivered; billing handles refunds.',
    // billing: may use both tools.
    call('issue_refund', { orderId: 'A-100' }),
    'Refunded.',
  ])
  const runtime = new Runtime({ provider, model: 'scripted', registry })

  const support = await runtime.exec('Refund order A-100', { owner: 'support-agent' })
  const billing = await runtime.exec('Refund order A-100', { owner: 'billing' })
  for (const [owner, result] of [
    ['support-agent', support],
    ['billing', billing],
  ] as const)
    log(`${owner}: ${result.receipts.map((r) => `${r.toolName} ${r.status}`).join(', ')}`)

  let refused = ''
  try {
    void runtime.exec('hi', { owner: 'sales' }) // throws before any request
  } catch (error) {
    if (!NestorError.isInstance(error)) throw error
    refused = `${error.code}: ${error.message}`
    log(`refused: ${refused}`)
  }
  return { support, billing, refused }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
