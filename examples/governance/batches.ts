// Batches: tool calls with no model in the loop, through the same gates. The plan is validated
// as a whole before anything runs.
// Run: npx tsc -b && node examples/dist/governance/batches.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { NestorError, Runtime, defineTool, type ParallelBatchResult } from '@nestor/core'
import { scripted } from '@nestor/providers'

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ parallel: ParallelBatchResult; refused: string }> {
  const resize = defineTool({
    name: 'resize',
    description: 'Resize an image',
    parameters: z.object({ image: z.string(), width: z.number().int().positive() }),
    execute: async ({ image, width }) => {
      await new Promise((r) => setTimeout(r, image.length * 5))
      return `${image}@${width}`
    },
  })
  const runtime = new Runtime({ provider: scripted([]), model: 'unused' })

  const serial = await runtime.runBatch(
    [
      { tool: 'resize', args: { image: 'cat.png', width: 100 }, callKey: 'thumb' },
      { tool: 'resize', args: { image: 'cat.png', width: 800 }, callKey: 'large' },
    ],
    { tools: [resize], stopOnError: true },
  )
  log(`runBatch ${serial.batchId}: ${serial.results.map((r) => `${r.callKey}=${r.receipt.status}`).join(', ')}`)

  // One lane per image: calls inside a lane run in order, lanes run two at a time.
  const lanes = ['panorama.png', 'a.png', 'logo.png'].map((image) => ({
    itemKey: image,
    calls: [100, 800].map((width) => ({ callKey: `w${width}`, tool: 'resize', args: { image, width } })),
  }))
  const parallel = await runtime.runParallelBatch(lanes, { maxConcurrency: 2, tools: [resize] })
  for (const lane of parallel.lanes)
    log(`lane ${lane.itemKey}: ${lane.results.map((r) => `${r.callKey}=${r.receipt.status}`).join(', ')}`)

  // A bad plan is refused before any call runs.
  let refused = ''
  try {
    await runtime.runParallelBatch(
      [...lanes, { itemKey: 'bad', calls: [{ callKey: 'w0', tool: 'resize', args: { image: 'x', width: 0 } }] }],
      { maxConcurrency: 2, tools: [resize] },
    )
  } catch (error) {
    if (!NestorError.isInstance(error)) throw error
    refused = `${error.code}: ${error.message}`
    log(`refused: ${refused}`)
  }
  return { parallel, refused }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
