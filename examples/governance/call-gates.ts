// The per-call gates: duplicates, the circuit breaker, timeouts, retries, the cache, the output
// schema, and the receipt every call leaves behind.
// Run: npx tsc -b && node examples/dist/governance/call-gates.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ToolReceipt } from '@nestor/core'
import { scripted } from '@nestor/providers'

const call = (name: string, args: Record<string, unknown> = {}) => ({
  content: [{ type: 'toolCall' as const, name, arguments: args }],
})

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ receipts: ToolReceipt[]; breaker: string | undefined }> {
  let fetches = 0
  let flakyAttempts = 0
  const search = defineTool({
    name: 'search',
    description: 'Search the catalogue',
    parameters: z.object({ q: z.string(), limit: z.number() }),
    cacheable: true, // a hit skips execution; the receipt says cached: true
    execute: ({ q }) => `results for ${q} (fetch #${++fetches})`,
  })
  const flaky = defineTool({
    name: 'flaky',
    description: 'Fails twice, then works',
    parameters: z.object({}),
    retries: 2, // up to 3 attempts, with backoff
    execute: () => (++flakyAttempts < 3 ? Promise.reject(new Error('503 from upstream')) : 'finally'),
  })
  const stuck = defineTool({
    name: 'stuck',
    description: 'Never answers',
    parameters: z.object({}),
    timeoutMs: 50, // even a body that ignores its signal gets an error result after 50 ms
    execute: () => new Promise<never>(() => {}),
  })
  const price = defineTool({
    name: 'price',
    description: 'Price of an item',
    parameters: z.object({ sku: z.string() }),
    output: z.object({ amount: z.number(), currency: z.string() }), // result gate
    execute: ({ sku }) => (sku === 'x1' ? { amount: 9.5, currency: 'EUR' } : { amount: 'ask us' }),
  })
  const provider = scripted([
    call('search', { q: 'lamps', limit: 5 }),
    call('search', { limit: 5, q: 'lamps' }), // same call, keys reordered: rejected as duplicate
    call('flaky'),
    call('stuck'),
    call('price', { sku: 'x1' }),
    call('price', { sku: 'x2' }),
    'Done.',
  ])
  const runtime = new Runtime({ provider, model: 'demo' })
  const result = await runtime.exec('Find lamps', { tools: [search, flaky, stuck, price] })
  for (const r of result.receipts)
    log(`${r.toolName.padEnd(6)} ${r.status.padEnd(15)} attempts=${r.attempts} cached=${r.cached} ${r.signature}`)

  // A second exec on the same runtime: the cache (per runtime) serves the search without running it.
  const cached = await runtime.exec('once more', {
    tools: [search],
    provider: scripted([call('search', { q: 'lamps', limit: 5 }), 'ok']),
  })
  log(`second exec: ${cached.receipts[0]?.status} cached=${cached.receipts[0]?.cached}, fetches so far: ${fetches}`)

  // The breaker: the same failing call twice in a row (breakerThreshold 2) stops the exec.
  const down = defineTool({
    name: 'ping',
    description: 'Ping a host',
    parameters: z.object({ host: z.string() }),
    execute: () => Promise.reject(new Error('unreachable')),
  })
  const tripped = await new Runtime({
    provider: scripted([call('ping', { host: 'db' }), call('ping', { host: 'db' }), 'never']),
    model: 'demo',
  }).exec('ping', { tools: [down] })
  log(`breaker: ${tripped.status} ${tripped.error?.code}: ${tripped.error?.message}`)
  return { receipts: [...result.receipts, ...cached.receipts], breaker: tripped.error?.message }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
