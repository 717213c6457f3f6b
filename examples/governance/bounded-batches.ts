// Bounded batches: a plan over maxLanes / maxCalls is refused before any call, and a tool's
// `concurrency` holds across every batch and exec of one runtime.
// Run: npx tsc -b && node examples/dist/governance/bounded-batches.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { NestorError, Runtime, defineTool } from '@nestor/core'
import { scripted } from '@nestor/providers'

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ maxInFlight: number; refused: string }> {
  let inFlight = 0
  let maxInFlight = 0
  const lookup = defineTool({
    name: 'lookup',
    description: 'Calls a rate-limited source',
    parameters: z.object({ id: z.string() }),
    concurrency: 2, // the source admits two requests at a time, whatever the local width
    execute: async ({ id }) => {
      maxInFlight = Math.max(maxInFlight, ++inFlight)
      await new Promise((r) => setTimeout(r, 10))
      inFlight--
      return id
    },
  })
  const runtime = new Runtime({ provider: scripted([]), model: 'unused' })
  const lanes = (prefix: string) =>
    ['a', 'b', 'c', 'd'].map((k) => ({
      itemKey: prefix + k,
      calls: [{ callKey: 'get', tool: 'lookup', args: { id: k } }],
    }))
  // Two batches, each four lanes wide: still at most two lookups at once.
  await Promise.all([
    runtime.runParallelBatch(lanes('x'), { maxConcurrency: 4, tools: [lookup] }),
    runtime.runParallelBatch(lanes('y'), { maxConcurrency: 4, tools: [lookup] }),
  ])
  log(`at most ${maxInFlight} lookups ran at once`)

  let refused = ''
  try {
    await runtime.runParallelBatch(lanes('z'), { maxConcurrency: 4, maxLanes: 3, tools: [lookup] })
  } catch (error) {
    if (!NestorError.isInstance(error)) throw error
    refused = `${error.code}: ${error.message}`
    log(`refused: ${refused}`)
  }
  return { maxInFlight, refused }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
