// A research loop that reads 120 pages of 2 kB through a model whose window is 8,000 tokens:
// without `context` it fails on the provider's "prompt is too long"; with it, the oldest pages are
// summarized as the run goes and it finishes. Offline: the model is scripted and counts its window.
// Run: npx tsc -b && node examples/dist/context/long-research.js
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { Runtime, defineTool, type ExecResult } from '@nestor/core'
import type { ModelRequest } from '@nestor/core/integration-kit'
import { scripted, type ScriptedTurn } from '@nestor/providers'

const WINDOW = 8_000
const PAGES = 120

/** The scripted model: refuses a request over its window like Anthropic does, else reads on. */
function windowedModel(request: ModelRequest): ScriptedTurn {
  const tokens = Math.ceil(JSON.stringify([request.system, request.messages, request.tools]).length / 4)
  if (tokens > WINDOW) return { error: `prompt is too long: ${tokens} tokens > ${WINDOW} maximum`, status: 400 }
  const usage = { input: tokens, output: 20 }
  const seen = JSON.stringify(request.messages)
  if (request.system?.startsWith('You write the working memory')) {
    const pages = [...seen.matchAll(/page (\d+) of/g)].map((m) => m[1])
    const earlier = seen.match(/pages read: ([\d, ]+)/)?.[1] ?? ''
    return { content: [{ type: 'text', text: `pages read: ${[earlier, ...pages].filter(Boolean).join(', ')}` }], usage }
  }
  const last = Math.max(
    0,
    ...[...JSON.stringify(request.messages.slice(-2)).matchAll(/page (\d+) of/g)].map((m) => Number(m[1])),
  )
  if (last === PAGES) return { content: [{ type: 'text', text: `Read all ${PAGES} pages.` }], usage }
  return { content: [{ type: 'toolCall', name: 'read_page', arguments: { n: last + 1 } }], usage }
}

const readPage = defineTool({
  name: 'read_page',
  description: 'Reads one page of the report',
  parameters: z.object({ n: z.number().int() }),
  execute: ({ n }) => `page ${n} of ${PAGES}: ${'findings '.repeat(220)}`,
})

export async function main(
  log: (line: string) => void = console.log,
): Promise<{ without: ExecResult; with: ExecResult; compactions: number }> {
  const runtime = new Runtime({ provider: scripted(windowedModel), model: 'small-window', maxIterations: 200 })
  const task = `Read pages 1 to ${PAGES}, then say you are done.`

  const without = await runtime.exec(task, { tools: [readPage] })
  log(`without context: ${without.status} (${without.error?.message})`)

  let compactions = 0
  const run = runtime.exec(task, { tools: [readPage], context: { maxTokens: WINDOW } })
  for await (const event of run) {
    if (event.type !== 'context_compacted') continue
    compactions++
    log(
      `compacted (${event.strategy}): ${event.before.messages} → ${event.after.messages} messages, ~${event.before.tokens} → ~${event.after.tokens} tokens`,
    )
  }
  const result = await run
  log(
    `with context: ${result.status}, "${result.text}" after ${result.receipts.length} tool calls and ${compactions} compactions`,
  )
  log(
    `the model last saw ${result.history.length} messages; its usage with the summaries: ${result.totalUsage.total} tokens`,
  )
  return { without, with: result, compactions }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main()
